import Foundation
import Hummingbird
import WebImage

extension FakeCloudStore {
    /// Swift's sign-ins and objects (under `/v1/AUTH_test/`).
    static func swift(_ request: Request, path: String, body: Data, state: Locked<State>) -> Response? {
        let storage = state.withLock { $0.base } + "/v1/AUTH_test"
        func issue() -> String {
            state.withLock { state in
                state.swiftSignIns += 1
                let token = "swift-\(state.swiftSignIns)"
                state.issued.insert(token)
                return token
            }
        }
        switch path {
        case "/auth/v1.0":
            guard request.headers[HTTPFields.Element.Name("X-Auth-User")!] == swiftUser,
                request.headers[HTTPFields.Element.Name("X-Auth-Key")!] == swiftKey
            else { return Response(status: .unauthorized) }
            return Response(
                status: .ok,
                headers: [
                    HTTPFields.Element.Name("X-Storage-Url")!: storage,
                    HTTPFields.Element.Name("X-Auth-Token")!: issue(),
                ])
        case "/v2.0/tokens":
            let auth = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["auth"] as? [String: Any]
            let credentials = auth?["passwordCredentials"] as? [String: Any]
            guard credentials?["username"] as? String == swiftUser, credentials?["password"] as? String == swiftKey,
                auth?["tenantName"] as? String == "tenant"
            else { return Response(status: .unauthorized) }
            let json: [String: Any] = [
                "access": [
                    "token": ["id": issue()],
                    "serviceCatalog": [
                        ["type": "identity", "endpoints": [["publicURL": "http://127.0.0.1:9/"]]],
                        ["type": "object-store", "endpoints": [["publicURL": storage, "region": "r"]]],
                    ],
                ]
            ]
            return jsonResponse(json, status: .ok, headers: [:])
        case "/v3/auth/tokens":
            let auth = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["auth"] as? [String: Any]
            let identity = auth?["identity"] as? [String: Any]
            let user = (identity?["password"] as? [String: Any])?["user"] as? [String: Any]
            let project = (auth?["scope"] as? [String: Any])?["project"] as? [String: Any]
            guard user?["name"] as? String == swiftUser, user?["password"] as? String == swiftKey,
                (user?["domain"] as? [String: Any])?["name"] as? String == "Default",
                project?["name"] as? String == "tenant"
            else { return Response(status: .unauthorized) }
            let json: [String: Any] = [
                "token": [
                    "catalog": [
                        [
                            "type": "object-store",
                            "endpoints": [
                                ["interface": "internal", "url": "http://127.0.0.1:9/"],
                                ["interface": "public", "url": storage],
                            ],
                        ]
                    ]
                ]
            ]
            return jsonResponse(json, status: .created, headers: [HTTPFields.Element.Name("X-Subject-Token")!: issue()])
        default:
            guard path.hasPrefix("/v1/AUTH_test/") else { return nil }
            let token = request.headers[HTTPFields.Element.Name("X-Auth-Token")!] ?? ""
            guard state.withLock({ $0.issued.contains(token) }) else {
                state.withLock { $0.refusals["swift", default: 0] += 1 }
                return Response(status: .unauthorized)
            }
            let name = "swift/" + (path.dropFirst("/v1/AUTH_test/".count).removingPercentEncoding ?? "")
            return object(name, state: state, extra: [.eTag: "\"swift-etag\""])
        }
    }
}
