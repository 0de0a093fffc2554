import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s `/info` options (docs/info.md), each also read from its `WEBIMAGE_` and imgproxy variable
/// (``Settings``).
struct InfoServeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The info options URLs may name, comma-separated; empty allows all (IMGPROXY_ALLOWED_INFO_OPTIONS).",
            valueName: "NAMES"))
    var allowedInfoOptions: [String] = []
    @Option(
        help: ArgumentHelp(
            "An info preset, NAME=OPTIONS (repeatable); `default` applies to every /info request "
                + "(IMGPROXY_INFO_PRESETS).", valueName: "PRESET"))
    var infoPreset: [String] = []
    @Option(
        help: ArgumentHelp(
            "Read info presets from this file, one NAME=OPTIONS a line (IMGPROXY_INFO_PRESETS_PATH).",
            valueName: "FILE"))
    var infoPresetsFile: String?
    @Flag(help: "The options part of /info URLs is preset names only (IMGPROXY_INFO_ONLY_PRESETS).")
    var infoOnlyPresets = false

    /// Sets `configuration.info`; throws for a value or preset that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        let allowed = try Settings.allowedInfoOptions.resolve(allowedInfoOptions)
        configuration.info.allowedOptions = Set(allowed.flatMap { $0.split(separator: ",").map(String.init) })
        var definitions = try Settings.infoPreset.resolve(infoPreset)
        if let path = try Settings.infoPresetsFile.resolve(infoPresetsFile) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--info-presets-file: cannot read \(path)")
            }
            definitions += text.split(whereSeparator: \.isNewline).map(String.init)
        }
        let separator = configuration.argumentsSeparator
        do {
            configuration.info.presets = try InfoConfiguration.presets(
                definitions: definitions, argumentsSeparator: separator)
        } catch {
            throw ValidationError("--info-preset: \(error.message)")
        }
        configuration.info.onlyPresets = try Settings.infoOnlyPresets.resolve(switch: infoOnlyPresets)
    }
}
