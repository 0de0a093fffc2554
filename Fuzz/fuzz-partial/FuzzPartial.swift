import Foundation
import WebImageTesting

/// libFuzzer entry: `FuzzEntries.partial` on the fuzzer's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPartial(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntries.partial(Data(bytes: start, count: count))
    return 0
}
