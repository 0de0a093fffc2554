import Foundation

/// `webimage-bench SUITE [ARGS…]`: runs one benchmark suite and prints its results.
let suites: [String: ([String]) async throws -> Void] = [
    "decode": DecodeBenchmark.run,
    "encode": EncodeBenchmark.run,
    "resample": ResampleBenchmark.run,
    "stages": ResampleBenchmark.stages,
    "colour": ColourBenchmark.run,
    "loader": LoaderBenchmarks.main,
    "cache": { _ in try await CacheBenchmarks.run() },
    "manager": ManagerBenchmark.run,
    "constant-server": ConstantServer.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites[name] else {
    print("usage: webimage-bench \(suites.keys.sorted().joined(separator: "|")) [arguments]")
    exit(64)
}
try await suite(Array(arguments.dropFirst()))
