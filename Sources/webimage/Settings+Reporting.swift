/// The error-reporting rows of ``Settings``: imgproxy's `IMGPROXY_SENTRY_*`, `IMGPROXY_BUGSNAG_*`,
/// `IMGPROXY_HONEYBADGER_*`, `IMGPROXY_AIRBRAKE_*`, `IMGPROXY_REPORT_DOWNLOADING_ERRORS` and
/// `IMGPROXY_REPORT_IO_ERRORS`, and the vendors' endpoints, read from their SDKs' own variables where they have one
/// (`BUGSNAG_NOTIFY_ENDPOINT`, `HONEYBADGER_ENDPOINT`).
extension Settings {
    static let sentryDSN = Setting<String>("sentry-dsn", .text, imgproxy: ["IMGPROXY_SENTRY_DSN"])
    static let sentryEnvironment = Setting<String>(
        "sentry-environment", .text, imgproxy: ["IMGPROXY_SENTRY_ENVIRONMENT"])
    static let sentryRelease = Setting<String>("sentry-release", .text, imgproxy: ["IMGPROXY_SENTRY_RELEASE"])
    static let bugsnagKey = Setting<String>("bugsnag-key", .text, imgproxy: ["IMGPROXY_BUGSNAG_KEY"])
    static let bugsnagStage = Setting<String>("bugsnag-stage", .text, imgproxy: ["IMGPROXY_BUGSNAG_STAGE"])
    static let bugsnagEndpoint = Setting<String>("bugsnag-endpoint", .text, imgproxy: ["BUGSNAG_NOTIFY_ENDPOINT"])
    static let honeybadgerKey = Setting<String>("honeybadger-key", .text, imgproxy: ["IMGPROXY_HONEYBADGER_KEY"])
    static let honeybadgerEnv = Setting<String>("honeybadger-env", .text, imgproxy: ["IMGPROXY_HONEYBADGER_ENV"])
    static let honeybadgerEndpoint = Setting<String>(
        "honeybadger-endpoint", .text, imgproxy: ["HONEYBADGER_ENDPOINT"])
    static let airbrakeProjectID = Setting<Int>(
        "airbrake-project-id", .integer, imgproxy: ["IMGPROXY_AIRBRAKE_PROJECT_ID"])
    static let airbrakeProjectKey = Setting<String>(
        "airbrake-project-key", .text, imgproxy: ["IMGPROXY_AIRBRAKE_PROJECT_KEY"])
    static let airbrakeEnvironment = Setting<String>(
        "airbrake-environment", .text, imgproxy: ["IMGPROXY_AIRBRAKE_ENVIRONMENT"])
    static let airbrakeEndpoint = Setting<String>("airbrake-endpoint", .text)
    static let reportDownloadingErrors = Setting<Bool>(
        "report-downloading-errors", .boolean, imgproxy: ["IMGPROXY_REPORT_DOWNLOADING_ERRORS"])
    static let reportIOErrors = Setting<Bool>(
        "report-io-errors", .boolean, imgproxy: ["IMGPROXY_REPORT_IO_ERRORS"])
    static let errorReportTimeout = Setting<Double>("error-report-timeout", .number)
    static let errorReportQueue = Setting<Int>("error-report-queue", .integer)

    /// The error-reporting settings, for ``all``.
    static let reporting: [any SettingVariables] = [
        sentryDSN, sentryEnvironment, sentryRelease, bugsnagKey, bugsnagStage, bugsnagEndpoint, honeybadgerKey,
        honeybadgerEnv, honeybadgerEndpoint, airbrakeProjectID, airbrakeProjectKey, airbrakeEnvironment,
        airbrakeEndpoint, reportDownloadingErrors, reportIOErrors, errorReportTimeout, errorReportQueue,
    ]
}
