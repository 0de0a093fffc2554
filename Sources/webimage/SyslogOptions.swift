import ArgumentParser
import Logging

/// `webimage serve`'s log lines to a syslog daemon too, as imgproxy's `IMGPROXY_SYSLOG_*` send them.
struct SyslogOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: "Send log lines to syslog too (default: off; IMGPROXY_SYSLOG_ENABLE).")
    var syslogEnable: Bool?
    @Option(help: "The least level sent to syslog: debug, info, warn, error or crit (default: info).")
    var syslogLevel: String?
    @Option(help: "udp, tcp, unix or unixgram (default: the local daemon's socket).")
    var syslogNetwork: String?
    @Option(help: "The daemon's HOST:PORT or socket path; needed with --syslog-network.")
    var syslogAddress: String?
    @Option(help: "The tag of each message (default: imgproxy, as imgproxy's).")
    var syslogTag: String?

    /// The connection to the daemon and the least level sent to it, when syslog is on; `nil` otherwise.
    func connect() throws -> (writer: SyslogWriter, level: Logger.Level)? {
        guard try Settings.syslogEnable.resolve(syslogEnable) ?? false else { return nil }
        let level = try Settings.syslogLevel.resolve(parsing: syslogLevel) ?? .info
        let network = try Settings.syslogNetwork.resolve(syslogNetwork) ?? ""
        let address = try Settings.syslogAddress.resolve(syslogAddress) ?? ""
        guard network.isEmpty || !address.isEmpty else {
            throw ValidationError("--syslog-address is required with --syslog-network")
        }
        do {
            let writer = try SyslogWriter(
                network: network, address: address, tag: try Settings.syslogTag.resolve(syslogTag) ?? "imgproxy")
            return (writer, level)
        } catch {
            throw ValidationError("unable to connect to syslog daemon: \(error)")
        }
    }
}
