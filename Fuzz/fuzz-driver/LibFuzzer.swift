import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point under test: set once by ``runLibFuzzer(_:)`` before libFuzzer starts, then only read, by
/// libFuzzer's one fuzzing thread.
nonisolated(unsafe) private var entry: (Data) -> Void = { _ in }

/// The callback libFuzzer's runtime names: each input goes to the entry under test.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    entry(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// Hands the process to libFuzzer (`LLVMFuzzerRunDriver`), which calls `body` with each input and parses the
/// command line (`-max_total_time=`, corpus directories, …) as a libFuzzer binary does.
///
/// SwiftPM gives every executable its own `main` (renamed, for testability), so the fuzz targets start libFuzzer
/// from there instead of linking libFuzzer's `main`.
public func runLibFuzzer(_ body: @escaping (Data) -> Void) -> Never {
    entry = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(
        runDriver(&argc, &argv) { start, count in fuzzerTestOneInput(start, count) })
}
