import Foundation
import WebImageTesting

/// libFuzzer entry: `FuzzEntries.transform` on the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransform(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntries.transform(Data(bytes: start, count: count))
    return 0
}
