import Foundation

/// Where the server reports the errors it answers with, as imgproxy's error reporters (`IMGPROXY_SENTRY_*`,
/// `IMGPROXY_BUGSNAG_*`, `IMGPROXY_HONEYBADGER_*`, `IMGPROXY_AIRBRAKE_*`) and which errors it reports
/// (`IMGPROXY_REPORT_DOWNLOADING_ERRORS`, `IMGPROXY_REPORT_IO_ERRORS`).
///
/// A vendor is on when its key (Sentry: its DSN) is set. Reports are sent in the background by their own HTTP client
/// (not under the sources' address policy: the endpoints are the operator's), never delaying or failing a request.
public struct ErrorReportingConfiguration: Sendable {
    /// Sentry's DSN, `https://PUBLIC_KEY@HOST/PROJECT_ID` (imgproxy's `IMGPROXY_SENTRY_DSN`); `nil` reports nothing to
    /// Sentry.
    public var sentryDSN: String?
    /// The event's `environment` (`IMGPROXY_SENTRY_ENVIRONMENT`); default `production`.
    public var sentryEnvironment = "production"
    /// The event's `release` (`IMGPROXY_SENTRY_RELEASE`); default `webimage@VERSION`, this package's version.
    public var sentryRelease = "webimage@" + FetchSettings.currentVersion

    /// Bugsnag's API key (`IMGPROXY_BUGSNAG_KEY`); `nil` reports nothing to Bugsnag.
    public var bugsnagKey: String?
    /// The event's `app.releaseStage` (`IMGPROXY_BUGSNAG_STAGE`); default `production`.
    public var bugsnagStage = "production"
    /// Bugsnag's Error Reporting API endpoint; default `https://notify.bugsnag.com/`.
    public var bugsnagEndpoint = URL(string: "https://notify.bugsnag.com/")!

    /// Honeybadger's API key (`IMGPROXY_HONEYBADGER_KEY`); `nil` reports nothing to Honeybadger.
    public var honeybadgerKey: String?
    /// The notice's `server.environment_name` (`IMGPROXY_HONEYBADGER_ENV`); default `production`.
    public var honeybadgerEnvironment = "production"
    /// Honeybadger's API base, notices go to `v1/notices` under it; default `https://api.honeybadger.io`.
    public var honeybadgerEndpoint = URL(string: "https://api.honeybadger.io")!

    /// Airbrake's project ID (`IMGPROXY_AIRBRAKE_PROJECT_ID`); as in imgproxy, not checked at start (a wrong one
    /// makes every notice fail, counted and logged).
    public var airbrakeProjectID = 0
    /// Airbrake's project key (`IMGPROXY_AIRBRAKE_PROJECT_KEY`); `nil` reports nothing to Airbrake.
    public var airbrakeProjectKey: String?
    /// The notice's `context.environment` (`IMGPROXY_AIRBRAKE_ENVIRONMENT`); default `production`.
    public var airbrakeEnvironment = "production"
    /// Airbrake's API base, notices go to `api/v3/projects/ID/notices` under it; default `https://api.airbrake.io`.
    public var airbrakeEndpoint = URL(string: "https://api.airbrake.io")!

    /// Report a source that cannot be downloaded or is not an image (`IMGPROXY_REPORT_DOWNLOADING_ERRORS`); default on.
    public var reportsDownloadingErrors = true
    /// Report a response that could not be written to the client (`IMGPROXY_REPORT_IO_ERRORS`); default off.
    public var reportsIOErrors = false
    /// The host name the reports name (Sentry's `server_name`, Bugsnag's `device.hostname`, ...); default this
    /// host's.
    public var serverName = ProcessInfo.processInfo.hostName
    /// How long one report may take to send before it is dropped; default 5 s.
    public var timeout: Duration = .seconds(5)
    /// How many reports may wait to be sent; beyond it new ones are dropped. Default 256.
    public var queueLimit = 256

    /// Nothing reported.
    public init() {}

    /// Whether any vendor is on.
    public var isEnabled: Bool { !reporters.isEmpty }

    /// The vendors that are on.
    var reporters: [any ErrorReporting] {
        var reporters: [any ErrorReporting] = []
        if let sentryDSN, !sentryDSN.isEmpty, let dsn = SentryDSN(sentryDSN) {
            reporters.append(SentryReporter(dsn: dsn, environment: sentryEnvironment, release: sentryRelease))
        }
        if let bugsnagKey, !bugsnagKey.isEmpty {
            reporters.append(BugsnagReporter(key: bugsnagKey, stage: bugsnagStage, endpoint: bugsnagEndpoint))
        }
        if let honeybadgerKey, !honeybadgerKey.isEmpty {
            reporters.append(
                HoneybadgerReporter(
                    key: honeybadgerKey, environment: honeybadgerEnvironment, endpoint: honeybadgerEndpoint))
        }
        if let airbrakeProjectKey, !airbrakeProjectKey.isEmpty {
            reporters.append(
                AirbrakeReporter(
                    projectID: airbrakeProjectID, key: airbrakeProjectKey, environment: airbrakeEnvironment,
                    endpoint: airbrakeEndpoint))
        }
        return reporters
    }

    /// Throws for the first setting outside its range.
    func validate() throws(ImageServerConfigurationError) {
        if let sentryDSN, !sentryDSN.isEmpty, SentryDSN(sentryDSN) == nil {
            throw ImageServerConfigurationError("sentry-dsn", "must be SCHEME://PUBLIC_KEY@HOST/PROJECT_ID")
        }
        for (name, url) in [
            ("bugsnag-endpoint", bugsnagEndpoint), ("honeybadger-endpoint", honeybadgerEndpoint),
            ("airbrake-endpoint", airbrakeEndpoint),
        ] where !["http", "https"].contains(url.scheme?.lowercased() ?? "") || (url.host ?? "").isEmpty {
            throw ImageServerConfigurationError(name, "must be an http or https URL")
        }
        guard timeout > .zero, timeout <= .seconds(600) else {
            throw ImageServerConfigurationError("error-report-timeout", "must be more than 0 and at most 600 s")
        }
        try ImageServerConfigurationError.check(
            queueLimit, in: 1...100_000, "error-report-queue", "must be between 1 and 100000")
    }
}
