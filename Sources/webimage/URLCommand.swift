import ArgumentParser
import Foundation
import WebImageServer

/// `webimage url`: prints the canonical signed URL of a result, the one spelling a URL-hashing load balancer needs.
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Print the canonical signed URL of a `webimage serve` result.",
        discussion: """
            The options may be written in any spelling the server accepts (short or long names, presets given \
            with --preset); the URL names every option that differs from its default by its long name, in the \
            order of the README's option table, then the source in URL-safe base64 and the format as extension. \
            Key and salt also come from WEBIMAGE_KEY and WEBIMAGE_SALT; without them the URL starts with \
            /insecure.

            Example:
              webimage url --key 943b…0881 --salt 520f…09c5 --base https://img.example.com \\
                https://example.com/photo.jpg rs:fill:300:200/q:80/f:webp
            """)

    @Argument(help: "The source image URL.")
    var source: String
    @Argument(help: ArgumentHelp("The processing options, imgproxy style.", valueName: "OPTIONS"))
    var options = ""
    @Option(help: "The signing key, hexadecimal (default: WEBIMAGE_KEY).")
    var key: String?
    @Option(help: "The signing salt, hexadecimal (default: WEBIMAGE_SALT).")
    var salt: String?
    @Option(help: "What goes before the path, such as https://img.example.com.")
    var base = ""
    @Option(help: ArgumentHelp("A preset the options may name, NAME=OPTIONS (repeatable).", valueName: "NAME=OPTIONS"))
    var preset: [String] = Env.list("PRESET")

    func run() throws {
        var signer: URLSigner?
        switch (key ?? Env.string("KEY"), salt ?? Env.string("SALT")) {
        case (nil, nil): signer = nil
        case (let key?, let salt?):
            guard let made = URLSigner(hexKey: key, hexSalt: salt) else {
                throw ValidationError("--key and --salt must be non-empty hexadecimal")
            }
            signer = made
        default: throw ValidationError("give both --key and --salt, or neither")
        }
        // The server's separator, as `webimage serve` reads it from the environment.
        let separator = Env.string("ARGUMENTS_SEPARATOR") ?? Env.value("IMGPROXY_ARGUMENTS_SEPARATOR") ?? ":"
        let presets: Presets
        do { presets = try Presets(definitions: preset, argumentsSeparator: separator) } catch {
            throw ValidationError(error.message)
        }
        do {
            let builder = ImageURLBuilder(signer: signer, base: base, argumentsSeparator: separator)
            print(try builder.url(options: options, source: source, presets: presets))
        } catch {
            throw ValidationError(error.message)
        }
    }
}
