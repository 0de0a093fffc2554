import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s error reporters (``Settings``' reporting rows), as imgproxy's Sentry, Bugsnag, Honeybadger and
/// Airbrake variables set them.
struct ReportingOptions: ParsableArguments {
    @Option(help: "Report errors to this Sentry DSN (IMGPROXY_SENTRY_DSN).")
    var sentryDsn: String?
    @Option(help: "Sentry's environment (default: production; IMGPROXY_SENTRY_ENVIRONMENT).")
    var sentryEnvironment: String?
    @Option(help: "Sentry's release (default: webimage@VERSION; IMGPROXY_SENTRY_RELEASE).")
    var sentryRelease: String?
    @Option(help: "Report errors to Bugsnag with this API key (IMGPROXY_BUGSNAG_KEY).")
    var bugsnagKey: String?
    @Option(help: "Bugsnag's release stage (default: production; IMGPROXY_BUGSNAG_STAGE).")
    var bugsnagStage: String?
    @Option(help: "Bugsnag's notify URL (default: https://notify.bugsnag.com/; BUGSNAG_NOTIFY_ENDPOINT).")
    var bugsnagEndpoint: String?
    @Option(help: "Report errors to Honeybadger with this API key (IMGPROXY_HONEYBADGER_KEY).")
    var honeybadgerKey: String?
    @Option(help: "Honeybadger's environment (default: production; IMGPROXY_HONEYBADGER_ENV).")
    var honeybadgerEnv: String?
    @Option(help: "Honeybadger's API base (default: https://api.honeybadger.io; HONEYBADGER_ENDPOINT).")
    var honeybadgerEndpoint: String?
    @Option(help: "Airbrake's project ID (IMGPROXY_AIRBRAKE_PROJECT_ID).")
    var airbrakeProjectId: Int?
    @Option(help: "Report errors to Airbrake with this project key (IMGPROXY_AIRBRAKE_PROJECT_KEY).")
    var airbrakeProjectKey: String?
    @Option(help: "Airbrake's environment (default: production; IMGPROXY_AIRBRAKE_ENVIRONMENT).")
    var airbrakeEnvironment: String?
    @Option(help: "Airbrake's API base (default: https://api.airbrake.io).")
    var airbrakeEndpoint: String?
    @Flag(
        inversion: .prefixedNo,
        help: "Report sources that cannot be downloaded (default: on; IMGPROXY_REPORT_DOWNLOADING_ERRORS).")
    var reportDownloadingErrors: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Report responses that cannot be written to the client (default: off; IMGPROXY_REPORT_IO_ERRORS).")
    var reportIoErrors: Bool?
    @Option(help: "Seconds one error report may take to send (default: 5).")
    var errorReportTimeout: Double?
    @Option(help: "Error reports waiting to be sent, beyond which new ones are dropped (default: 256).")
    var errorReportQueue: Int?

    /// Sets the configuration's error reporting; throws for a variable or flag that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var reporting = configuration.errorReporting
        reporting.sentryDSN = try Settings.sentryDSN.resolve(sentryDsn)
        reporting.sentryEnvironment =
            try Settings.sentryEnvironment.resolve(sentryEnvironment)
            ?? reporting.sentryEnvironment
        reporting.sentryRelease = try Settings.sentryRelease.resolve(sentryRelease) ?? reporting.sentryRelease
        reporting.bugsnagKey = try Settings.bugsnagKey.resolve(bugsnagKey)
        reporting.bugsnagStage = try Settings.bugsnagStage.resolve(bugsnagStage) ?? reporting.bugsnagStage
        reporting.bugsnagEndpoint =
            try Self.url(
                Settings.bugsnagEndpoint.resolve(bugsnagEndpoint), "--bugsnag-endpoint") ?? reporting.bugsnagEndpoint
        reporting.honeybadgerKey = try Settings.honeybadgerKey.resolve(honeybadgerKey)
        reporting.honeybadgerEnvironment =
            try Settings.honeybadgerEnv.resolve(honeybadgerEnv)
            ?? reporting.honeybadgerEnvironment
        reporting.honeybadgerEndpoint =
            try Self.url(
                Settings.honeybadgerEndpoint.resolve(honeybadgerEndpoint), "--honeybadger-endpoint")
            ?? reporting.honeybadgerEndpoint
        reporting.airbrakeProjectID =
            try Settings.airbrakeProjectID.resolve(airbrakeProjectId)
            ?? reporting.airbrakeProjectID
        reporting.airbrakeProjectKey = try Settings.airbrakeProjectKey.resolve(airbrakeProjectKey)
        reporting.airbrakeEnvironment =
            try Settings.airbrakeEnvironment.resolve(airbrakeEnvironment)
            ?? reporting.airbrakeEnvironment
        reporting.airbrakeEndpoint =
            try Self.url(
                Settings.airbrakeEndpoint.resolve(airbrakeEndpoint), "--airbrake-endpoint")
            ?? reporting.airbrakeEndpoint
        reporting.reportsDownloadingErrors =
            try Settings.reportDownloadingErrors.resolve(reportDownloadingErrors)
            ?? reporting.reportsDownloadingErrors
        reporting.reportsIOErrors = try Settings.reportIOErrors.resolve(reportIoErrors) ?? reporting.reportsIOErrors
        if let seconds = try Settings.errorReportTimeout.resolve(errorReportTimeout) {
            guard seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw ValidationError("--error-report-timeout must be more than 0 and at most 600")
            }
            reporting.timeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
        }
        reporting.queueLimit = try Settings.errorReportQueue.resolve(errorReportQueue) ?? reporting.queueLimit
        configuration.errorReporting = reporting
    }

    /// `text` as an http(s) URL, `nil` when not given.
    private static func url(_ text: String?, _ flag: String) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            !(url.host ?? "").isEmpty
        else { throw ValidationError("\(flag): '\(text)' must be an http or https URL") }
        return url
    }
}
