/// How long a connection of ``ImageServer/makeApplication(address:onServerRunning:)`` may take over each part of an
/// exchange, as imgproxy's HTTP server bounds them (Go's `http.Server` `ReadTimeout`, `IdleTimeout` and the response
/// writer's deadline). A connection past one of them is closed.
public struct ConnectionTimeouts: Sendable, Hashable {
    /// Reading one request, from the connection's start (or the request's head) to the end of its body (imgproxy's
    /// `IMGPROXY_READ_REQUEST_TIMEOUT`); default 10 s.
    public var readRequest: Duration = .seconds(10)
    /// Writing one response, from its head to its last byte handed to the client (imgproxy's
    /// `IMGPROXY_WRITE_RESPONSE_TIMEOUT`); default 10 s.
    public var writeResponse: Duration = .seconds(10)
    /// How long a keep-alive connection may wait for its next request (imgproxy's `IMGPROXY_KEEP_ALIVE_TIMEOUT`);
    /// default 10 s. Zero turns keep-alive off: every response says `Connection: close` and the connection closes
    /// after it, as imgproxy's `SetKeepAlivesEnabled(false)`.
    public var keepAlive: Duration = .seconds(10)

    /// imgproxy's defaults.
    public init() {}

    /// The longest any of them may be: a day.
    static let longest = Duration.seconds(86_400)

    /// Throws for a timeout out of its range: the read and write timeouts above zero, keep-alive zero or more, none
    /// beyond a day.
    func validate() throws(ImageServerConfigurationError) {
        try ImageServerConfigurationError.check(
            readRequest, in: .milliseconds(1)...Self.longest, "read-request-timeout",
            "must be between 1 and 86400 seconds")
        try ImageServerConfigurationError.check(
            writeResponse, in: .milliseconds(1)...Self.longest, "write-response-timeout",
            "must be between 1 and 86400 seconds")
        try ImageServerConfigurationError.check(
            keepAlive, in: .zero...Self.longest, "keep-alive-timeout", "must be between 0 and 86400 seconds")
    }
}
