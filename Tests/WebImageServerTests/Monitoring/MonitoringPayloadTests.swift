import Foundation
import Testing
import WebImageStores

@testable import WebImageServer

/// The payloads of the monitoring exporters against hand-checked bytes and texts: the msgpack of a Datadog agent's
/// traces, the DogStatsD datagram, CloudWatch's `PutMetricData` parameters and signature.
@Suite struct MonitoringPayloadTests {
    @Test func messagePackFormsAreTheShortestThatHoldTheValue() {
        var writer = MessagePackWriter()
        writer.map(count: 2)
        writer.string("a")
        writer.unsigned(1)
        writer.array(count: 16)
        writer.unsigned(0x80)
        writer.unsigned(0x100)
        writer.unsigned(0x1_0000)
        writer.unsigned(0x1_0000_0000)
        writer.signed(-1)
        writer.signed(-33)
        writer.signed(-129)
        writer.signed(-40_000)
        writer.signed(-3_000_000_000)
        writer.signed(5)
        writer.double(1.5)
        writer.string(String(repeating: "x", count: 32))
        writer.map(count: 0)
        let expected: [UInt8] =
            [0x82, 0xA1, 0x61, 0x01, 0xDC, 0x00, 0x10, 0xCC, 0x80, 0xCD, 0x01, 0x00, 0xCE, 0x00, 0x01, 0x00, 0x00]
            + [0xCF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xD0, 0xDF, 0xD1, 0xFF, 0x7F]
            + [0xD2, 0xFF, 0xFF, 0x63, 0xC0, 0xD3, 0xFF, 0xFF, 0xFF, 0xFF, 0x4D, 0x2F, 0xA2, 0x00, 0x05]
            + [0xCB, 0x3F, 0xF8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xD9, 0x20] + Array(repeating: 0x78, count: 32)
            + [0x80]
        #expect(writer.bytes == expected)
    }

    @Test func aSpanIsTheAgentsMapOfTwelveFieldsGroupedByTrace() throws {
        let span = DatadogSpanRecord(
            traceID: 1, spanID: 2, parentID: 0, name: "request", resource: "request", service: "imgproxy",
            type: "web", start: 1_000, duration: 5, error: true, meta: ["http.method": "GET"],
            metrics: ["_dd.top_level": 1])
        var writer = MessagePackWriter()
        span.write(to: &writer)
        // The first fields, by hand: a 12-entry map, "trace_id" 1, "span_id" 2, "parent_id" 0.
        let head: [UInt8] = [0x8C, 0xA8] + Array("trace_id".utf8) + [0x01, 0xA7] + Array("span_id".utf8) + [0x02]
        #expect(Array(writer.bytes.prefix(head.count)) == head)
        var child = span
        child.spanID = 3
        child.parentID = 2
        var other = span
        other.traceID = 9
        let (body, traces) = DatadogSpanRecord.payload([span, other, child])
        #expect(traces == 2)
        let decoded = try MessagePackReader.read(body)
        let groups = try #require(decoded.array)
        #expect(groups.map { $0.array?.count } == [2, 1])
        let first = try #require(groups[0].array?[1])
        #expect(first["parent_id"]?.number == 2)
        #expect(first["name"]?.text == "request")
        #expect(first["error"]?.number == 1)
        #expect(first["start"]?.number == 1_000)
        #expect(first["meta"]?["http.method"]?.text == "GET")
        #expect(first["metrics"]?["_dd.top_level"] == .double(1))
    }

    @Test func theDogStatsDDatagramHasImgproxysGaugeNamesAndTags() {
        let statsd = DogStatsDMonitoring(host: "127.0.0.1", port: 8125, tags: ["service:imgproxy", "version:1|x"])
        let gauges = MonitoringGauges.Snapshot(
            workers: 4, requestsInProgress: 3, imagesInProgress: 1, workersUtilization: 37.5)
        #expect(
            statsd.datagram(gauges) == """
                imgproxy.workers:4|g|#service:imgproxy,version:1x
                imgproxy.requests_in_progress:3|g|#service:imgproxy,version:1x
                imgproxy.images_in_progress:1|g|#service:imgproxy,version:1x
                imgproxy.workers_utilization:37.5|g|#service:imgproxy,version:1x
                """)
    }

    @Test func putMetricDataHasImgproxysNamesUnitsAndTheServiceNameDimension() {
        let cloudWatch = CloudWatchMonitoring(
            serviceName: "my svc", region: "eu-west-1", credentials: S3Credentials(accessKey: "AK", secretKey: "SK"))
        #expect(cloudWatch.endpoint.absoluteString == "https://monitoring.eu-west-1.amazonaws.com")
        let gauges = MonitoringGauges.Snapshot(
            workers: 4, requestsInProgress: 3, imagesInProgress: 1, workersUtilization: 75)
        let parameters = cloudWatch.parameters(gauges)
        #expect(
            parameters.prefix(3).map { "\($0.0)=\($0.1)" } == [
                "Action=PutMetricData", "Version=2010-08-01", "Namespace=imgproxy",
            ])
        var metrics: [String: (unit: String, value: String)] = [:]
        for index in 1...5 {
            let member = "MetricData.member.\(index)."
            let values = Dictionary(parameters.map { ($0.0, $0.1) }) { first, _ in first }
            #expect(values[member + "Dimensions.member.1.Name"] == "ServiceName")
            #expect(values[member + "Dimensions.member.1.Value"] == "my svc")
            metrics[values[member + "MetricName"] ?? ""] = (
                values[member + "Unit"] ?? "", values[member + "Value"] ?? ""
            )
        }
        #expect(metrics["Workers"]! == ("Count", "4"))
        #expect(metrics["RequestsInProgress"]! == ("Count", "3"))
        #expect(metrics["ImagesInProgress"]! == ("Count", "1"))
        #expect(metrics["ConcurrencyUtilization"]! == ("Percent", "75"))
        #expect(metrics["WorkersUtilization"]! == ("Percent", "75"))
        #expect(parameters.count == 3 + 5 * 5)
        let body = CloudWatchMonitoring.body([("Namespace", "a b/c"), ("X", "é")])
        #expect(body == "Namespace=a%20b%2Fc&X=%C3%A9")
    }

    @Test func putMetricDataIsSignedForTheMonitoringService() {
        let cloudWatch = CloudWatchMonitoring(
            serviceName: "svc", region: "us-west-1", endpoint: URL(string: "http://127.0.0.1:9000"),
            credentials: S3Credentials(accessKey: "AK", secretKey: "SK", sessionToken: "TOKEN"))
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let headers = Dictionary(cloudWatch.headers(body: "Action=PutMetricData", date: date)) { first, _ in first }
        #expect(headers["host"] == "127.0.0.1:9000")
        #expect(headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(headers["x-amz-date"] == "20231114T221320Z")
        #expect(headers["x-amz-security-token"] == "TOKEN")
        let authorization = headers["Authorization"] ?? ""
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AK/20231114/us-west-1/monitoring/aws4_request, "))
        #expect(
            authorization.contains(
                "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token"))
        #expect(cloudWatch.path == "/")
    }

    @Test func theGaugesFollowTheServersMetersUnderTheNamespace() {
        let gauges = MonitoringGauges(prefix: "ns_")
        let metrics = ServerMetrics(namespace: "ns", exporter: gauges)
        metrics.load(running: 1, waiting: 3, slots: 4)
        metrics.started()
        metrics.started()
        metrics.finished(seconds: 0.1)
        #expect(
            gauges.snapshot
                == MonitoringGauges.Snapshot(
                    workers: 4, requestsInProgress: 1, imagesInProgress: 1, workersUtilization: 25))
        let unprefixed = MonitoringGauges(prefix: "")
        ServerMetrics(namespace: "ns", exporter: unprefixed).load(running: 2, waiting: 0, slots: 2)
        #expect(unprefixed.snapshot == MonitoringGauges.Snapshot())
    }
}

/// New Relic's Metric API body and imgproxy's labels syntax.
@Suite struct NewRelicPayloadTests {
    @Test func theMetricAPIBodyHasImgproxysCustomMetricsAndTheLabels() throws {
        let newRelic = NewRelicMonitoring(key: "abc", appName: "images", labels: ["team": "media"])
        #expect(newRelic.metricsURL == "https://metric-api.newrelic.com/metric/v1")
        #expect(NewRelicMonitoring(key: "eu01xxabc").metricsURL == "https://metric-api.eu.newrelic.com/metric/v1")
        let gauges = MonitoringGauges.Snapshot(
            workers: 4, requestsInProgress: 3, imagesInProgress: 1, workersUtilization: 37.5)
        let body = try newRelic.body(gauges, at: Date(timeIntervalSince1970: 1_700_000_000.25))
        let gauge = { (name: String, value: String) in
            "{\"name\":\"imgproxy/\(name)\",\"timestamp\":1700000000250,\"type\":\"gauge\",\"value\":\(value)}"
        }
        let expected =
            "[{\"common\":{\"attributes\":{\"appName\":\"images\",\"team\":\"media\"}},\"metrics\":["
            + [
                gauge("workers", "4"), gauge("requests_in_progress", "3"), gauge("images_in_progress", "1"),
                gauge("workers_utilization", "37.5"),
            ].joined(separator: ",") + "]}]"
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    @Test func labelsAreImgproxysKeyValuePairs() {
        #expect(NewRelicMonitoring.labels("a=1; b = two ;;c=") == ["a": "1", "b": "two", "c": ""])
        #expect(NewRelicMonitoring.labels("") == [:])
        #expect(NewRelicMonitoring.labels("novalue") == nil)
        #expect(NewRelicMonitoring.labels("=1") == nil)
    }
}
