import Foundation

extension Data {
    /// `withUnsafeBytes` for a body that throws ``WebImageError``, keeping the error's type (the standard method
    /// rethrows it as `any Error`).
    func withImageBytes<T>(_ body: (UnsafeRawBufferPointer) throws(WebImageError) -> T) throws(WebImageError) -> T {
        let result: Result<T, WebImageError> = withUnsafeBytes { bytes in
            do throws(WebImageError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
