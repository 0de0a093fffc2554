import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Sends imgproxy's gauges every interval (``MonitoringConfiguration``) to CloudWatch, New Relic and a DogStatsD
/// agent, until the service group shuts down. It runs beside the server, never on a request's path: a reading that
/// an endpoint does not take within the interval is dropped (``DropLog``).
struct MonitoringService: Service {
    let configuration: MonitoringConfiguration
    let gauges: MonitoringGauges
    let log: DropLog

    func run() async throws {
        let interval = configuration.interval
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)))
        http.connectionPool.idleTimeout = .seconds(60)
        // The reports are not requests to trace.
        http.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
        let datagrams = configuration.dogStatsD == nil ? nil : DatagramSender(log: log)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { break }
                let reading = gauges.snapshot
                if let cloudWatch = configuration.cloudWatch {
                    await send(reading, to: cloudWatch, client: client, timeout: interval)
                }
                if let newRelic = configuration.newRelic {
                    await send(reading, to: newRelic, client: client, timeout: interval)
                }
                if let dogStatsD = configuration.dogStatsD, let datagrams {
                    await datagrams.send(dogStatsD.datagram(reading), host: dogStatsD.host, port: dogStatsD.port)
                }
            }
        }
        await datagrams?.close()
        try? await client.shutdown()
    }

    /// One `PutMetricData` of `reading`, given up after `timeout`.
    private func send(
        _ reading: MonitoringGauges.Snapshot, to cloudWatch: CloudWatchMonitoring, client: HTTPClient,
        timeout: Duration
    ) async {
        let body = CloudWatchMonitoring.body(cloudWatch.parameters(reading))
        var request = HTTPClientRequest(url: cloudWatch.endpoint.absoluteString)
        request.method = .POST
        for (name, value) in cloudWatch.headers(body: body, date: Date()) {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let text = try await response.body.collect(upTo: 64 << 10)
            guard response.status == .ok else {
                throw Refused(status: response.status.code, body: String(buffer: text))
            }
        } catch {
            log.dropped("CloudWatch \(cloudWatch.endpoint.absoluteString)", error)
        }
    }

    /// One Metric API post of `reading`, given up after `timeout`.
    private func send(
        _ reading: MonitoringGauges.Snapshot, to newRelic: NewRelicMonitoring, client: HTTPClient, timeout: Duration
    ) async {
        do {
            var request = HTTPClientRequest(url: newRelic.metricsURL)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-License-Key", value: newRelic.key)
            request.body = .bytes(ByteBuffer(bytes: try newRelic.body(reading, at: Date())))
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let text = try await response.body.collect(upTo: 64 << 10)
            guard (200..<300).contains(response.status.code) else {
                throw Refused(status: response.status.code, body: String(buffer: text))
            }
        } catch {
            log.dropped("New Relic \(newRelic.metricsURL)", error)
        }
    }

    /// An endpoint's answer to a report that it refused.
    private struct Refused: Error, CustomStringConvertible {
        let status: UInt
        let body: String
        var description: String { "HTTP \(status): \(body.prefix(300))" }
    }
}
