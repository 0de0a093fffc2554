import Logging

/// The syslog rows of ``Settings``: imgproxy's `IMGPROXY_SYSLOG_ENABLE`, `_LEVEL`, `_NETWORK`, `_ADDRESS` and `_TAG`.
extension Settings {
    static let syslogEnable = Setting<Bool>("syslog-enable", .boolean, imgproxy: ["IMGPROXY_SYSLOG_ENABLE"])
    static let syslogLevel = Setting<Logger.Level>("syslog-level", .syslogLevel, imgproxy: ["IMGPROXY_SYSLOG_LEVEL"])
    static let syslogNetwork = Setting<String>("syslog-network", .text, imgproxy: ["IMGPROXY_SYSLOG_NETWORK"])
    static let syslogAddress = Setting<String>("syslog-address", .text, imgproxy: ["IMGPROXY_SYSLOG_ADDRESS"])
    static let syslogTag = Setting<String>("syslog-tag", .text, imgproxy: ["IMGPROXY_SYSLOG_TAG"])

    /// The syslog settings, for ``all``.
    static let syslog: [any SettingVariables] = [syslogEnable, syslogLevel, syslogNetwork, syslogAddress, syslogTag]
}

extension ValueParser<Logger.Level> {
    /// imgproxy's syslog levels: `debug`, `info`, `warn`, `error` or `crit`.
    static var syslogLevel: Self {
        Self(expected: "debug, info, warn, error or crit") { text in
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "debug": .debug
            case "info": .info
            case "warn": .warning
            case "error": .error
            case "crit": .critical
            default: nil
            }
        }
    }
}
