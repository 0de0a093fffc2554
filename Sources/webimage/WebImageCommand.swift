import ArgumentParser

/// The `webimage` command: load, decode, transform and cache images from the command line.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode, transform and cache images.",
        discussion: """
            Exit statuses: 0 success; 64 usage error; 65 the image could not be decoded (corrupt, truncated,
            unsupported, too large); 66 the source could not be loaded; 73 the output could not be written.
            """,
        subcommands: [FetchCommand.self]
    )
}
