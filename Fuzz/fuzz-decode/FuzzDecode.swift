import Foundation
import WebImageTesting

/// libFuzzer entry: `FuzzEntries.decode` on the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntries.decode(Data(bytes: start, count: count))
    return 0
}
