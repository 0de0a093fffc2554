import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Sends imgproxy's gauges every interval (``MonitoringConfiguration``) to CloudWatch and a DogStatsD agent, until
/// the service group shuts down. It runs beside the server, never on a request's path: a reading that an endpoint
/// does not take within the interval is dropped (``DropLog``).
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
                throw CloudWatchError(status: response.status.code, body: String(buffer: text))
            }
        } catch {
            log.dropped("CloudWatch \(cloudWatch.endpoint.absoluteString)", error)
        }
    }

    /// CloudWatch's answer to a `PutMetricData` that it refused.
    private struct CloudWatchError: Error, CustomStringConvertible {
        let status: UInt
        let body: String
        var description: String { "HTTP \(status): \(body.prefix(300))" }
    }
}
