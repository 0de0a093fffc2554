if CommandLine.arguments.dropFirst().first == "loader" {
    try await LoaderBenchmarks.main(Array(CommandLine.arguments.dropFirst(2)))
} else {
    print("bench")
}
