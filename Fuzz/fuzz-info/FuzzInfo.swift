import Foundation
import WebImageTesting

/// libFuzzer entry: `FuzzEntries.info` on the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfo(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntries.info(Data(bytes: start, count: count))
    return 0
}
