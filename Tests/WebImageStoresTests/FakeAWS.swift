import Crypto
import Foundation
import Hummingbird
import WebImage

@testable import WebImageStores

/// STS, KMS, Secrets Manager and SSM of the test's own on 127.0.0.1, answering as AWS does (the query API's XML, the
/// JSON APIs' objects and `__type` errors) and checking every request's Signature Version 4 with its own code
/// (``FakeAWSSignature``), against the secrets of the keys it knows: a request it cannot verify is answered 403
/// `SignatureDoesNotMatch`, as AWS answers it.
final class FakeAWS: Sendable {
    /// One verified request: the operation, its parameters (form fields or the JSON object's string and boolean
    /// members), who signed it and for which service.
    struct Call: Sendable {
        var operation: String
        var parameters: [String: String]
        var accessKey: String
        var sessionToken: String?
        var service: String
        var region: String
    }

    /// What it answers, set by the test before the calls.
    struct State: Sendable {
        /// Access key → secret of the keys whose signatures are accepted.
        var secrets: [String: String] = [:]
        /// What `AssumeRole` answers, and in how many seconds the credentials expire.
        var roleCredentials = S3Credentials(accessKey: "ASIAROLE", secretKey: "role-secret", sessionToken: "token")
        var roleLifetime: TimeInterval = 3600
        /// KMS: a wrapped key (base64) → its data key and the encryption context it was wrapped under.
        var dataKeys: [String: (key: Data, context: [String: String])] = [:]
        /// Secrets Manager: `SecretId` (and `#VersionId` or `@VersionStage` when asked for) → `SecretString`.
        var secretStrings: [String: String] = [:]
        /// SSM: the parameters (name, value, data type), answered two per page.
        var parameters: [(name: String, value: String, type: String)] = []
    }

    let port: Int
    let state: Locked<State>
    private let recorded: Locked<[Call]>
    private let server: LocalRouterServer

    private init(port: Int, state: Locked<State>, recorded: Locked<[Call]>, server: LocalRouterServer) {
        self.port = port
        self.state = state
        self.recorded = recorded
        self.server = server
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The verified calls so far.
    var calls: [Call] { recorded.withLock { $0 } }

    /// Starts it on a free port with `state`.
    static func start(_ initial: State) async throws -> FakeAWS {
        let state = Locked(initial)
        let recorded = Locked<[Call]>([])
        let router = Router()
        router.post("/") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            var headers: [(String, String)] = request.headers.map { ($0.name.canonicalName, $0.value) }
            headers.append(("host", request.head.authority ?? ""))
            let secrets = state.withLock { $0.secrets }
            guard
                let signer = FakeAWSSignature.verify(
                    method: "POST", path: request.uri.path, query: request.uri.query ?? "", headers: headers,
                    body: body, secrets: secrets)
            else {
                return error(403, "SignatureDoesNotMatch", json: headers.contains { $0.0 == "x-amz-target" })
            }
            let token = headers.first { $0.0 == "x-amz-security-token" }?.1
            if let target = headers.first(where: { $0.0 == "x-amz-target" })?.1 {
                let operation = String(target.split(separator: ".").last ?? "")
                let object = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
                var parameters: [String: String] = [:]
                for (name, value) in object {
                    if let text = value as? String { parameters[name] = text }
                    if let flag = value as? Bool { parameters[name] = flag ? "true" : "false" }
                    if let map = value as? [String: String],
                        let json = try? JSONSerialization.data(withJSONObject: map, options: .sortedKeys)
                    {
                        parameters[name] = String(decoding: json, as: UTF8.self)
                    }
                }
                recorded.withLock {
                    $0.append(
                        Call(
                            operation: operation, parameters: parameters, accessKey: signer.accessKey,
                            sessionToken: token, service: signer.service, region: signer.region))
                }
                return FakeAWSAnswers.json(operation, object: object, state: state.withLock { $0 })
            }
            var form: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            recorded.withLock {
                $0.append(
                    Call(
                        operation: form["Action"] ?? "", parameters: form, accessKey: signer.accessKey,
                        sessionToken: token, service: signer.service, region: signer.region))
            }
            return FakeAWSAnswers.assumeRole(state.withLock { $0 })
        }
        let server = try await LocalRouterServer.start(router)
        return FakeAWS(port: server.port, state: state, recorded: recorded, server: server)
    }

    /// An AWS error answer: JSON `__type` or the query API's XML.
    static func error(_ status: Int, _ code: String, json: Bool) -> Response {
        let body =
            json
            ? "{\"__type\":\"\(code)\",\"message\":\"fake\"}"
            : "<ErrorResponse><Error><Code>\(code)</Code></Error></ErrorResponse>"
        return Response(
            status: .init(code: status), headers: [.contentType: json ? "application/x-amz-json-1.1" : "text/xml"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    func stop() async {
        await server.stop()
    }
}
