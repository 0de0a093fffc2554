import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import WebImage

/// A swift-metrics factory that exports every metric over OTLP, as imgproxy's OpenTelemetry meter does: under the
/// instrumentation scope `imgproxy` (imgproxy's `Meter("imgproxy")`), every series read each export interval
/// (`OTEL_METRIC_EXPORT_INTERVAL`) into one `ExportMetricsServiceRequest`, cumulative or, as
/// `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` may ask, delta. Timers are histograms in seconds over
/// OpenTelemetry's duration bounds, aggregating recorders histograms over its default bounds. ``exporter`` is the
/// service that sends them: run it beside the server.
package final class OTLPMetricsFactory: MetricsFactory {
    /// The instrumentation scope of the metrics, imgproxy's.
    package static let scope = "imgproxy"
    /// The bounds of a timer's histogram, in seconds.
    static let durationBounds = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
    /// The bounds of an aggregating recorder's histogram (OpenTelemetry's defaults).
    static let valueBounds: [Double] = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000]

    /// The service exporting the metrics.
    package let exporter: OTLPBatcher
    private let delta: Bool
    private let instruments = Locked<[Key: OTLPInstrument]>([:])
    /// Destroyed series, read once more by the next export (a server that stops destroys its metrics before the
    /// last export).
    private let retired = Locked<[OTLPInstrument]>([])
    private let lastCollection: Locked<UInt64>

    /// A series' identity: its label and dimensions.
    private struct Key: Hashable {
        let label: String
        let dimensions: [String]
        let kind: OTLPInstrument.Kind
    }

    /// A factory exporting through `transport` every `interval`, each export within `timeout`, from a resource of
    /// `resource`; `delta` for delta temporality.
    package init(
        transport: any OTLPTransport, resource: [String: String], interval: Duration, timeout: Duration, delta: Bool,
        logger: Logger
    ) {
        self.delta = delta
        lastCollection = Locked(Self.now())
        let limits = OTLPBatchLimits(
            scheduleDelay: interval, maximumQueueSize: 1 << 16, maximumBatchSize: 1 << 16, exportTimeout: timeout)
        let instruments = instruments
        let retired = retired
        let lastCollection = lastCollection
        exporter = OTLPBatcher(
            .metrics, limits: limits, transport: transport, resource: .resource(resource), scope: Self.scope,
            logger: logger
        ) {
            let last = retired.withLock { retired in
                defer { retired = [] }
                return retired
            }
            return Self.collect(instruments.withLock { Array($0.values) } + last, since: lastCollection, delta: delta)
        }
    }

    package func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        instrument(label, dimensions, .sum)
    }

    package func makeFloatingPointCounter(
        label: String, dimensions: [(String, String)]
    )
        -> any FloatingPointCounterHandler
    { instrument(label, dimensions, .sum) }

    package func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        instrument(label, dimensions, .gauge)
    }

    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        instrument(label, dimensions, aggregate ? .histogram(bounds: Self.valueBounds) : .gauge)
    }

    package func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        instrument(label, dimensions, .histogram(bounds: Self.durationBounds), unit: "s")
    }

    package func destroyCounter(_ handler: any CounterHandler) { destroy(handler) }
    package func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { destroy(handler) }
    package func destroyMeter(_ handler: any MeterHandler) { destroy(handler) }
    package func destroyRecorder(_ handler: any RecorderHandler) { destroy(handler) }
    package func destroyTimer(_ handler: any TimerHandler) { destroy(handler) }

    /// The series of `label` and `dimensions`, made on first use; the same label and dimensions asked as another
    /// kind of instrument is its own series (both are exported), as the first handler keeps recording into its own.
    private func instrument(
        _ label: String, _ dimensions: [(String, String)], _ kind: OTLPInstrument.Kind, unit: String = ""
    ) -> OTLPInstrument {
        let key = Key(label: label, dimensions: dimensions.map { "\($0.0)=\($0.1)" }.sorted(), kind: kind)
        return instruments.withLock { instruments in
            if let existing = instruments[key] { return existing }
            let made = OTLPInstrument(name: label, dimensions: dimensions, kind: kind, unit: unit)
            instruments[key] = made
            return made
        }
    }

    /// Retires `handler`'s series: exported once more, then forgotten.
    private func destroy(_ handler: AnyObject) {
        let removed = instruments.withLock { instruments in
            let removed = instruments.filter { $0.value === handler }
            for key in removed.keys { instruments[key] = nil }
            return removed.values
        }
        retired.withLock { $0 += removed }
    }

    /// The `Metric` messages of `instruments`, one per name and kind, with a data point per series.
    private static func collect(
        _ instruments: [OTLPInstrument], since last: Locked<UInt64>, delta: Bool
    )
        -> [OTLPMessage]
    {
        let now = now()
        let start =
            delta
            ? last.withLock { last in
                defer { last = now }; return last
            } : last.withLock { $0 }
        var order: [String] = []
        var points: [String: (instrument: OTLPInstrument, points: [OTLPMessage])] = [:]
        for instrument in instruments.sorted(by: { $0.name < $1.name }) {
            guard let point = instrument.dataPoint(start: start, now: now, delta: delta) else { continue }
            let key = "\(instrument.name) \(instrument.kind)"
            if points[key] == nil { order.append(key) }
            points[key, default: (instrument, [])].points.append(point)
        }
        return order.compactMap { points[$0] }.map { instrument, points in
            var metric = OTLPMessage().with(1, "name", .string(instrument.name))
            if !instrument.unit.isEmpty { metric = metric.with(3, "unit", .string(instrument.unit)) }
            let temporality: UInt64 = delta ? 1 : 2
            switch instrument.kind {
            case .gauge: return metric.with(5, "gauge", .message(OTLPMessage().with(1, "dataPoints", repeated: points)))
            case .sum:
                let sum = OTLPMessage().with(1, "dataPoints", repeated: points)
                    .with(2, "aggregationTemporality", .unsigned(temporality)).with(3, "isMonotonic", .bool(true))
                return metric.with(7, "sum", .message(sum))
            case .histogram:
                let histogram = OTLPMessage().with(1, "dataPoints", repeated: points)
                    .with(2, "aggregationTemporality", .unsigned(temporality))
                return metric.with(9, "histogram", .message(histogram))
            }
        }
    }

    /// The time in nanoseconds since 1970.
    private static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000_000)) }
}
