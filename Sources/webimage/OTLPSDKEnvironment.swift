import ArgumentParser
import Foundation
import Logging
import WebImageServer

/// The OpenTelemetry SDK's variables that are not the exporters': the resource (`OTEL_SERVICE_NAME`, `imgproxy` by
/// default as in imgproxy, and `OTEL_RESOURCE_ATTRIBUTES`), the propagators (`OTEL_PROPAGATORS`), the level of the
/// exported log records (`OTEL_LOG_LEVEL`), the sampler (`OTEL_TRACES_SAMPLER`, `_ARG`), the batches (`OTEL_BSP_*`,
/// `OTEL_BLRP_*`) and the metrics' reader (`OTEL_METRIC_EXPORT_INTERVAL`, `_TIMEOUT`, the temporality). As
/// OpenTelemetry's SDKs do, a sampler, batch or reader value that does not parse is logged and the default used; as
/// imgproxy, an unknown propagator or log level stops the start.
enum OTLPSDKEnvironment {
    /// The resource's attributes: `OTEL_RESOURCE_ATTRIBUTES` (`k=v,k2=v2`, values percent-decoded), `service.name`
    /// over them (`OTEL_SERVICE_NAME`, else `imgproxy`: imgproxy sets `OTEL_SERVICE_NAME` itself when it is unset,
    /// so a `service.name` in `OTEL_RESOURCE_ATTRIBUTES` never counts), and the SDK's language.
    static func resource(_ variables: [String: String]) -> [String: String] {
        var attributes = ["telemetry.sdk.language": "swift", "telemetry.sdk.name": "webimage"]
        for (key, value) in OTLPSignalEnvironment.headers(variables["OTEL_RESOURCE_ATTRIBUTES"] ?? "") {
            attributes[key] = value
        }
        let name = variables["OTEL_SERVICE_NAME"]?.trimmingCharacters(in: .whitespaces) ?? ""
        attributes["service.name"] = name.isEmpty ? "imgproxy" : name
        return attributes
    }

    /// The propagators of `OTEL_PROPAGATORS` (comma-separated, each name trimmed); W3C `tracecontext,baggage` when
    /// it is unset or blank.
    ///
    /// - Throws: `ValidationError` for a name that is no propagator (``TracePropagators/names``).
    static func propagators(_ variables: [String: String]) throws -> TracePropagators {
        guard let text = variables["OTEL_PROPAGATORS"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .default
        }
        do {
            return try TracePropagators(
                names: text.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
        } catch {
            throw ValidationError("OTEL_PROPAGATORS=\(text): \(error)")
        }
    }

    /// The lowest level of the log records exported (`OTEL_LOG_LEVEL`: `debug`, `info`, `warn` or `error`, in any
    /// case), as imgproxy's log hook reads it; `nil` when unset or blank, for the log's own level.
    ///
    /// - Throws: `ValidationError` for another value.
    static func logLevel(_ variables: [String: String]) throws -> Logger.Level? {
        guard let text = variables["OTEL_LOG_LEVEL"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return nil
        }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "debug": return .debug
        case "info": return .info
        case "warn": return .warning
        case "error": return .error
        default: throw ValidationError("OTEL_LOG_LEVEL=\(text): must be debug, info, warn or error")
        }
    }

    /// The sampler of `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`; ``TraceSampler/default`` when unset or
    /// unknown (logged).
    static func sampler(_ variables: [String: String], logger: Logger) -> TraceSampler {
        guard let name = variables["OTEL_TRACES_SAMPLER"], !name.isEmpty else { return .default }
        let argument = variables["OTEL_TRACES_SAMPLER_ARG"].flatMap { $0.isEmpty ? nil : $0 }
        guard let sampler = TraceSampler(name: name, argument: argument) else {
            logger.warning(
                "OTEL_TRACES_SAMPLER: unknown sampler or ratio, parentbased_always_on used",
                metadata: ["sampler": "\(name)", "argument": "\(argument ?? "")"])
            return .default
        }
        return sampler
    }

    /// The batch limits of `<prefix>_SCHEDULE_DELAY`, `_MAX_QUEUE_SIZE`, `_MAX_EXPORT_BATCH_SIZE` and
    /// `_EXPORT_TIMEOUT` (milliseconds and counts), `defaults` for each unset or not a positive integer.
    static func limits(_ variables: [String: String], prefix: String, defaults: OTLPBatchLimits) -> OTLPBatchLimits {
        func positive(_ suffix: String) -> Int? {
            variables["\(prefix)_\(suffix)"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
                $0 > 0 ? $0 : nil
            }
        }
        return OTLPBatchLimits(
            scheduleDelay: positive("SCHEDULE_DELAY").map { .milliseconds($0) } ?? defaults.scheduleDelay,
            maximumQueueSize: positive("MAX_QUEUE_SIZE") ?? defaults.maximumQueueSize,
            maximumBatchSize: positive("MAX_EXPORT_BATCH_SIZE") ?? defaults.maximumBatchSize,
            exportTimeout: positive("EXPORT_TIMEOUT").map { .milliseconds($0) } ?? defaults.exportTimeout)
    }

    /// The positive number of milliseconds `name` holds; `nil` when unset or not one.
    static func milliseconds(_ variables: [String: String], _ name: String) -> Duration? {
        variables[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
            $0 > 0 ? .milliseconds($0) : nil
        }
    }

    /// Whether `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` asks for delta temporality (`delta`, or
    /// `lowmemory`, which means delta for the synchronous counters and histograms that are all the server has);
    /// cumulative by default, and for an unknown value (logged).
    static func deltaTemporality(_ variables: [String: String], logger: Logger) -> Bool {
        let name = "OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"
        switch variables[name]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "cumulative": return false
        case "delta", "lowmemory": return true
        case let other?:
            logger.warning("\(name): unknown temporality, cumulative used", metadata: ["value": "\(other)"])
            return false
        }
    }
}
