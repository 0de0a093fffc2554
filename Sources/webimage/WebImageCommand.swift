import ArgumentParser

/// The `webimage` command: load, decode, transform and cache images from the command line.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode, transform and cache images.",
        discussion: """
            Examples:
              webimage demo
              webimage fetch photo.jpg --resize 256x256 -o thumb.webp --json
              webimage prefetch --file urls.txt
              webimage cache info
              webimage info anim.gif --durations
              webimage serve --key KEY --salt SALT

            \(ExitStatus.help)
            """,
        subcommands: [
            FetchCommand.self, PrefetchCommand.self, CacheCommand.self, InfoCommand.self, DemoCommand.self,
            ServeCommand.self, URLCommand.self,
        ]
    )
}
