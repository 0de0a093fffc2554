import Foundation

/// An AWS service's answer other than 2xx (STS, KMS, Secrets Manager, SSM), the `underlying` error of the
/// `.badStatus` `WebImageError`s of ``AWSRequestSender``: the service, the operation, the status and the error code
/// (`ResourceNotFoundException`, `AccessDenied`), with the access key id for 401 and 403; never a secret, a session
/// token or the service's message (which may quote the request).
public struct AWSServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The service's signing name (`sts`, `kms`…).
    public let service: String
    /// The operation (`AssumeRole`, `Decrypt`…).
    public let operation: String
    /// The HTTP status.
    public let status: Int
    /// The error code of the answer (`__type` of a JSON answer, `<Code>` of an XML one), `nil` without one.
    public let code: String?
    /// The credentials' access key id.
    public let accessKey: String

    public var description: String {
        var text = "\(service) \(operation) answered \(status)" + (code.map { " \($0)" } ?? "")
        if status == 401 || status == 403 { text += " (access key \(accessKey))" }
        return text
    }

    /// The error code of `body`: a JSON answer's `__type` (after its last `#`) or an XML answer's `<Code>`, at most 128
    /// letters, digits and `.`; else `nil`.
    static func code(in body: Data) -> String? {
        var code: String?
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let type = object["__type"] as? String ?? object["code"] as? String
        {
            code = type.split(separator: "#").last.map(String.init)
        } else {
            code = S3StoreError.code(in: body)
        }
        guard let code, (1...128).contains(code.count),
            code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
        else { return nil }
        return code
    }
}
