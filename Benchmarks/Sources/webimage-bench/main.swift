if CommandLine.arguments.dropFirst().first == "cache" {
    try await CacheBenchmarks.run()
} else {
    print("bench")
}
