import Crypto
import Foundation
import Hummingbird
import WebImage
import _CryptoExtras

/// Google Cloud Storage, Azure Blob Storage, OpenStack Swift (v1, v2 and v3 sign-in), Google's token service and
/// Secret Manager in one HTTP server of the test's own on 127.0.0.1, each checking credentials by its own means: the
/// token service verifies the JWT's RS256 signature with the public key and its claims, Azure recomputes the Shared
/// Key signature from the request as received (an implementation of Microsoft's description independent of the
/// client's), Swift and GCS accept only the tokens it issued.
final class FakeCloudStore: Sendable {
    /// What the server holds and has seen.
    struct State: Sendable {
        /// Objects by `store/bucket/key` (`gcs/images/a.jpg`, `abs/…`, `swift/…`); a GCS generation as `#N`.
        var objects: [String: Data] = [:]
        /// Headers an object is answered with besides its type and date (`Cache-Control`, `Expires`), by its name.
        var objectHeaders: [String: [String: String]] = [:]
        var tokenRequests = 0
        var swiftSignIns = 0
        var issued: Set<String> = []
        /// Requests refused (a bad signature, an unknown token), by store.
        var refusals: [String: Int] = [:]
        /// The paths of every request, in order.
        var log: [String] = []
        var secret = Data()
        /// Whether GCS answers requests without a token (an emulator).
        var gcsAnonymous = false
        /// Whether Azure answers requests without credentials (a public container).
        var azureAnonymous = false
        /// The tokens issued by the credential sources (`gce`, `refresh`, `secret`, `imds`…), in order.
        var identityRequests: [String] = []
        /// The client certificate's public key (DER) and SHA-1 thumbprint (base64url), when a test made one.
        var certificateKey: Data?
        var certificateThumbprint: String?
        /// The refresh tokens the STS takes for a workforce user; each use replaces the one used (rotation).
        var workforceRefreshTokens: Set<String> = ["wf-refresh-0"]
        /// `http://127.0.0.1:PORT`.
        var base = ""
    }

    static let lastModified = "Tue, 03 Mar 2026 10:20:30 GMT"
    static let azureAccount = "devaccount"
    /// Base64 of 32 bytes, as an account key.
    static let azureKey = Data((0..<32).map { UInt8($0 &* 7 &+ 1) }).base64EncodedString()
    static let swiftUser = "swiftuser"
    static let swiftKey = "swift-secret-key"

    let port: Int
    let state: Locked<State>
    let signingKey: _RSA.Signing.PrivateKey
    private let server: LocalRouterServer

    private init(port: Int, state: Locked<State>, key: _RSA.Signing.PrivateKey, server: LocalRouterServer) {
        self.port = port
        self.state = state
        signingKey = key
        self.server = server
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// A service-account key whose token URI is this server's `/token`.
    func serviceAccountKey(email: String = "reader@project.iam.gserviceaccount.com") -> String {
        let object: [String: Any] = [
            "type": "service_account", "project_id": "project", "private_key_id": "k1",
            "private_key": signingKey.pkcs8PEMRepresentation, "client_email": email, "token_uri": base + "/token",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts a server holding nothing.
    static func start() async throws -> FakeCloudStore {
        let state = Locked(State())
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let publicKey = key.publicKey
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            return FakeCloudStore.answer(
                request, body: Data(buffer: body), state: state, publicKey: publicKey)
        }
        router.get("**", use: handler)
        router.post("**", use: handler)
        router.put("**", use: handler)
        let server = try await LocalRouterServer.start(router)
        let port = server.port
        state.withLock { $0.base = "http://127.0.0.1:\(port)" }
        return FakeCloudStore(port: port, state: state, key: key, server: server)
    }

    func stop() async {
        await server.stop()
    }

    /// Forgets every token issued, so that the next request with one is refused (401).
    func expireTokens() { state.withLock { $0.issued.removeAll() } }

    private static func answer(
        _ request: Request, body: Data, state: Locked<State>, publicKey: _RSA.Signing.PublicKey
    ) -> Response {
        let path = request.uri.path
        state.withLock { $0.log.append(path) }
        let query = FakeCloudStore.query(request.uri.query ?? "")
        if let response = identity(request, path: path, body: body, state: state) { return response }
        if let response = federation(request, path: path, body: body, state: state) { return response }
        if path == "/token" {
            return token(body, state: state, publicKey: publicKey, base: state.withLock { $0.base })
        }
        if path.hasPrefix("/storage/v1/b/") {
            let anonymous = request.headers[.authorization] == nil && state.withLock { $0.gcsAnonymous }
            guard anonymous || bearer(request, state: state, store: "gcs") else {
                return Response(status: .unauthorized)
            }
            let parts = path.dropFirst("/storage/v1/b/".count).split(separator: "/", maxSplits: 2)
            guard parts.count == 3, parts[1] == "o", query["alt"] == "media" else {
                return Response(status: .badRequest)
            }
            let name =
                "gcs/" + (String(parts[0]).removingPercentEncoding ?? "") + "/"
                + (String(parts[2]).removingPercentEncoding ?? "") + (query["generation"].map { "#" + $0 } ?? "")
            return object(name, state: state, extra: [HTTPFields.Element.Name("x-goog-hash")!: "crc32c=AAAAAQ==,md5=x"])
        }
        if path.hasPrefix("/secretmanager/v1/") {
            guard bearer(request, state: state, store: "secret") else { return Response(status: .unauthorized) }
            guard path.hasSuffix("/projects/project/secrets/env/versions/latest:access") else {
                return Response(status: .notFound)
            }
            let secret = state.withLock { $0.secret }
            let json = "{\"name\":\"x\",\"payload\":{\"data\":\"\(secret.base64EncodedString())\"}}"
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
        if path.hasPrefix("/" + azureAccount + "/") {
            guard request.headers[.authorization] == azureAuthorization(request) || azureBearer(request, state: state)
            else {
                state.withLock { $0.refusals["abs", default: 0] += 1 }
                return Response(
                    status: .forbidden, headers: [HTTPFields.Element.Name("x-ms-error-code")!: "AuthenticationFailed"])
            }
            let name = "abs/" + (path.dropFirst(azureAccount.count + 2).removingPercentEncoding ?? "")
            return object(name, state: state, extra: [.eTag: "\"0x8D\""])
        }
        if let response = swift(request, path: path, body: body, state: state) { return response }
        return Response(status: .notFound)
    }

    static func object(_ name: String, state: Locked<State>, extra: HTTPFields) -> Response {
        guard let data = state.withLock({ $0.objects[name] }) else { return Response(status: .notFound) }
        var headers = extra
        for (field, value) in state.withLock({ $0.objectHeaders[name] ?? [:] }) {
            if let name = HTTPFields.Element.Name(field) { headers[name] = value }
        }
        headers[.contentType] = "image/png"
        headers[.lastModified] = lastModified
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Whether the request carries a token this server issued (counting a refusal for `store` when not).
    private static func bearer(_ request: Request, state: Locked<State>, store: String) -> Bool {
        let header = request.headers[.authorization] ?? ""
        let valid = header.hasPrefix("Bearer ") && state.withLock { $0.issued.contains(String(header.dropFirst(7))) }
        if !valid { state.withLock { $0.refusals[store, default: 0] += 1 } }
        return valid
    }

    /// The token service: a JWT-bearer grant whose assertion verifies with `publicKey` and names this server.
    private static func token(
        _ body: Data, state: Locked<State>, publicKey: _RSA.Signing.PublicKey, base: String
    ) -> Response {
        state.withLock { $0.tokenRequests += 1 }
        let form = query(String(decoding: body, as: UTF8.self))
        let parts = (form["assertion"] ?? "").split(separator: ".").map(String.init)
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", parts.count == 3,
            let signature = base64URL(parts[2]), let claimsData = base64URL(parts[1]),
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8)), padding: .insecurePKCS1v1_5),
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            claims["aud"] as? String == base + "/token", claims["iss"] as? String != nil,
            let scope = claims["scope"] as? String, scope.hasPrefix("https://www.googleapis.com/auth/")
        else { return jsonResponse(["error": "invalid_grant"], status: .badRequest, headers: [:]) }
        let token = state.withLock { state in
            let token = "gtok-\(state.tokenRequests)"
            state.issued.insert(token)
            return token
        }
        return jsonResponse(
            ["access_token": token, "expires_in": 3599, "token_type": "Bearer"], status: .ok, headers: [:])
    }

    /// The Shared Key `Authorization` the request should carry, computed from it as received.
    static func azureAuthorization(_ request: Request) -> String {
        var lines = [request.method.rawValue]
        for name in [
            "Content-Encoding", "Content-Language", "Content-Length", "Content-MD5", "Content-Type", "Date",
            "If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range",
        ] {
            let value = request.headers[HTTPFields.Element.Name(name)!] ?? ""
            lines.append(name == "Content-Length" && value == "0" ? "" : value)
        }
        let msHeaders = request.headers.filter { $0.name.canonicalName.hasPrefix("x-ms-") }
            .map { ($0.name.canonicalName, $0.value) }.sorted { $0.0 < $1.0 }
        for (name, value) in msHeaders { lines.append("\(name):\(value)") }
        var resource = "/\(azureAccount)\(request.uri.path)"
        for (name, value) in query(request.uri.query ?? "").sorted(by: { $0.key < $1.key }) {
            resource += "\n\(name.lowercased()):\(value)"
        }
        lines.append(resource)
        let key = SymmetricKey(data: Data(base64Encoded: azureKey) ?? Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Data(lines.joined(separator: "\n").utf8), using: key)
        return "SharedKey \(azureAccount):" + Data(mac).base64EncodedString()
    }

    static func jsonResponse(
        _ object: [String: Any], status: HTTPResponse.Status, headers: HTTPFields
    )
        -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json"
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A form or query string's fields, percent-decoded (`+` a space).
    static func query(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
