import Foundation
import WebImageTesting

/// libFuzzer entry: `FuzzEntries.thumbnail` on the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnail(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntries.thumbnail(Data(bytes: start, count: count))
    return 0
}
