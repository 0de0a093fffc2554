import Foundation
import WebImage
import WebImageStores

/// CloudWatch's `PutMetricData`, imgproxy's `monitoring/cloudwatch`: every interval, in ``namespace``, the gauges
/// `Workers`, `RequestsInProgress`, `ImagesInProgress` (unit `Count`), `ConcurrencyUtilization` and
/// `WorkersUtilization` (unit `Percent`), each with the one dimension `ServiceName` = ``serviceName``. imgproxy's
/// `VipsMemory`, `VipsMaxMemory` and `VipsAllocs` have no counterpart here (there is no libvips).
///
/// Sent with the query protocol (`Action=PutMetricData`, form-encoded), signed with AWS Signature Version 4 for the
/// service `monitoring`.
public struct CloudWatchMonitoring: Sendable {
    /// The `ServiceName` dimension (`IMGPROXY_CLOUD_WATCH_SERVICE_NAME`).
    public var serviceName: String
    /// The namespace (`IMGPROXY_CLOUD_WATCH_NAMESPACE`, default `imgproxy`).
    public var namespace: String
    /// The region the requests are signed for.
    public var region: String
    /// The endpoint (AWS's `https://monitoring.REGION.amazonaws.com`, or `AWS_ENDPOINT_URL_CLOUDWATCH`).
    public var endpoint: URL
    /// The credentials that sign.
    public var credentials: S3Credentials

    /// Reporting for `serviceName` into `namespace`, in `region`, to `endpoint` (AWS's of the region when `nil`).
    public init(
        serviceName: String, namespace: String = "imgproxy", region: String, endpoint: URL? = nil,
        credentials: S3Credentials
    ) {
        self.serviceName = serviceName
        self.namespace = namespace
        self.region = region
        self.endpoint = endpoint ?? Self.awsEndpoint(region)
        self.credentials = credentials
    }

    /// AWS's CloudWatch endpoint of `region` (`.com.cn` in China).
    public static func awsEndpoint(_ region: String) -> URL {
        let suffix = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        return URL(string: "https://monitoring.\(region).\(suffix)") ?? URL(string: "https://monitoring.amazonaws.com")!
    }

    /// The `PutMetricData` parameters of one reading, in the order they are sent.
    func parameters(_ gauges: MonitoringGauges.Snapshot) -> [(String, String)] {
        let data: [(String, String, Double)] = [
            ("Workers", "Count", gauges.workers), ("RequestsInProgress", "Count", gauges.requestsInProgress),
            ("ImagesInProgress", "Count", gauges.imagesInProgress),
            ("ConcurrencyUtilization", "Percent", gauges.workersUtilization),
            ("WorkersUtilization", "Percent", gauges.workersUtilization),
        ]
        var parameters = [("Action", "PutMetricData"), ("Version", "2010-08-01"), ("Namespace", namespace)]
        for (index, (name, unit, value)) in data.enumerated() {
            let member = "MetricData.member.\(index + 1)."
            parameters += [
                (member + "MetricName", name),
                (member + "Dimensions.member.1.Name", "ServiceName"),
                (member + "Dimensions.member.1.Value", serviceName),
                (member + "Unit", unit),
                (member + "Value", MetricNumber.text(value)),
            ]
        }
        return parameters
    }

    /// The form-encoded body of `parameters` (every byte but `A-Z a-z 0-9 - . _ ~` percent-encoded).
    static func body(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(encoded($0.0))=\(encoded($0.1))" }.joined(separator: "&")
    }

    /// The headers of a `POST /` of `body` at `date`: `Host`, `Content-Type` and the signature's.
    func headers(body: String, date: Date) -> [(String, String)] {
        let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
        let signed = [("host", host), ("content-type", "application/x-www-form-urlencoded; charset=utf-8")]
        let signer = SignatureV4(credentials: credentials, region: region, service: "monitoring")
        let hash = Hex.sha256(body)
        return signed
            + signer.signedHeaders(method: "POST", path: path, headers: signed, payloadHash: hash, date: date)
    }

    /// The endpoint's path, `/` when it has none.
    var path: String { endpoint.path.isEmpty ? "/" : endpoint.path }

    private static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
