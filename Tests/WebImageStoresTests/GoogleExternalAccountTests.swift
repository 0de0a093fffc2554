import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// Google's workload identity federation (`external_account` files) against ``FakeCloudStore``: each subject token
/// source (a file, an URL, an executable, AWS's signed request) exchanged at the fake STS, with and without service
/// account impersonation, and the token reading GCS; the file's checks; the AWS request's signature against a
/// vector computed apart (Python's `hmac`, from AWS's description).
@Suite struct GoogleExternalAccountTests {
    static let jwtType = "urn:ietf:params:oauth:token-type:jwt"

    /// Reads `gcs/images/a.png` twice with `json`'s credentials and returns the kinds of token the fake issued.
    static func read(
        _ json: String, fake: FakeCloudStore, environment: [String: String] = [:]
    ) async throws
        -> [String]
    {
        let before = fake.state.withLock { $0.identityRequests.count }
        let credentials = try GoogleCredentials(json: json, environment: environment)
        let endpoint = try #require(URL(string: fake.base + "/storage/v1/"))
        let client = GCSClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(30))
        defer { Task { try? await client.shutdown() } }
        for _ in 0..<2 {
            let object = try await client.object(bucket: "images", key: "a.png", query: nil, maxSize: 1 << 20)
            #expect(object?.data == Data([1, 2, 3]))
        }
        try await client.shutdown()
        return fake.state.withLock { Array($0.identityRequests.dropFirst(before)) }
    }

    static func start() async throws -> FakeCloudStore {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock { $0.objects["gcs/images/a.png"] = Data([1, 2, 3]) }
        return fake
    }

    @Test func fileAndURLSubjectTokensAreExchangedOnceForTheirReads() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let directory = try LocalProcess.temporaryDirectory("external-account")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("token.txt")
        try Data((FakeCloudStore.subjectToken + "\n").utf8).write(to: text)
        let json = directory.appendingPathComponent("token.json")
        try Data(#"{"access":{"id":"x"},"token":"\#(FakeCloudStore.subjectToken)"}"#.utf8).write(to: json)
        let textFile = fake.externalAccount(source: ["file": text.path])
        #expect(try await Self.read(textFile, fake: fake) == ["sts:jwt"])
        let jsonFile = fake.externalAccount(
            source: ["file": json.path, "format": ["type": "json", "subject_token_field_name": "token"]],
            tokenType: "urn:ietf:params:oauth:token-type:id_token")
        #expect(try await Self.read(jsonFile, fake: fake) == ["sts:id_token"])
        let url = fake.externalAccount(
            source: [
                "url": fake.base + "/subject", "headers": ["X-Subject": "yes"],
                "format": ["type": "json", "subject_token_field_name": "id_token"],
            ], impersonate: true)
        // Impersonated: the STS token (of the cloud-platform scope) is exchanged for the service account's.
        #expect(try await Self.read(url, fake: fake) == ["sts:jwt+cloud-platform", "impersonated"])
        // A client of the exchange authenticates with HTTP Basic; a workforce pool's project goes in `options`.
        let client = fake.externalAccount(
            source: ["file": text.path],
            extra: ["client_id": FakeCloudStore.federationClient.id, "client_secret": "fed-secret"])
        #expect(try await Self.read(client, fake: fake) == ["sts:jwt+client"])
        let workforce = fake.externalAccount(
            source: ["file": text.path],
            extra: ["audience": FakeCloudStore.workforceAudience, "workforce_pool_user_project": "proj-1"])
        #expect(try await Self.read(workforce, fake: fake) == ["sts:jwt+project:proj-1"])
        // A subject token the STS does not know is refused, and so is the read.
        try Data("forged".utf8).write(to: text)
        await #expect(throws: WebImageError.self) { _ = try await Self.read(textFile, fake: fake) }
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
    }

    @Test func anExecutableRunsOnlyWhenAllowedAndItsOutputFileIsReused() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let directory = try LocalProcess.temporaryDirectory("external-executable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("token.sh")
        let runs = directory.appendingPathComponent("runs")
        let expiry = Int(Date().timeIntervalSince1970) + 3600
        try Data(
            """
            #!/bin/sh
            echo "$GOOGLE_EXTERNAL_ACCOUNT_AUDIENCE $GOOGLE_EXTERNAL_ACCOUNT_INTERACTIVE $1" >> \(runs.path)
            out='{"version":1,"success":true,"token_type":"\(Self.jwtType)",'
            out="$out"'"id_token":"\(FakeCloudStore.subjectToken)","expiration_time":\(expiry)}'
            [ -n "$GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE" ] && echo "$out" > "$GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE"
            echo "$out"
            """.utf8
        ).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let output = directory.appendingPathComponent("cached.json")
        let json = fake.externalAccount(
            source: ["executable": ["command": "\(script.path) --flag", "output_file": output.path]])
        // Not allowed without GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1, as in Google's library.
        await #expect(throws: WebImageError.self) { _ = try await Self.read(json, fake: fake) }
        #expect(!FileManager.default.fileExists(atPath: runs.path))
        let allowed = ["GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES": "1"]
        #expect(try await Self.read(json, fake: fake, environment: allowed) == ["sts:jwt"])
        // The second exchange reads the output file the first run left, while its token has not expired.
        #expect(try await Self.read(json, fake: fake, environment: allowed) == ["sts:jwt"])
        let lines = try String(contentsOf: runs, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["\(FakeCloudStore.federationAudience) 0 --flag"])
        // Unsuccessful, expired and malformed answers are refused.
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for bad in [
            #"{"version":1,"success":false,"code":"401","message":"denied"}"#,
            #"{"version":1,"success":true,"token_type":"\#(Self.jwtType)","id_token":"t","expiration_time":1}"#,
            #"{"version":2,"success":true,"token_type":"\#(Self.jwtType)","id_token":"t"}"#,
            #"{"version":1,"success":true,"token_type":"other","id_token":"t"}"#, "not json",
        ] {
            #expect(throws: WebImageError.self, "\(bad)") {
                try GoogleExternalAccount.executableResponse(Data(bad.utf8), needsExpiry: false, now: now)
            }
        }
        let saml =
            #"{"version":1,"success":true,"token_type":"urn:ietf:params:oauth:token-type:saml2","saml_response":"s"}"#
        #expect(try GoogleExternalAccount.executableResponse(Data(saml.utf8), needsExpiry: false, now: now) == "s")
        #expect(throws: WebImageError.self) {
            try GoogleExternalAccount.executableResponse(Data(saml.utf8), needsExpiry: true, now: now)
        }
    }

    @Test func awsCredentialsSignTheCallerIdentityRequest() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let source: [String: Any] = [
            "environment_id": "aws1", "region_url": fake.base + "/latest/meta-data/placement/availability-zone",
            "url": fake.base + "/latest/meta-data/iam/security-credentials",
            "imdsv2_session_token_url": fake.base + "/latest/api/token",
            "regional_cred_verification_url":
                "https://sts.{region}.amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15",
        ]
        let json = fake.externalAccount(source: source, tokenType: "urn:ietf:params:aws:token-type:aws4_request")
        // The region and the role's credentials from the instance metadata, asked with an IMDSv2 session token.
        #expect(try await Self.read(json, fake: fake) == ["sts:aws:us-east-2"])
        // The environment's region and credentials come first.
        let environment = [
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": FakeCloudStore.awsAccessKey,
            "AWS_SECRET_ACCESS_KEY": FakeCloudStore.awsSecretKey, "AWS_SESSION_TOKEN": FakeCloudStore.awsSessionToken,
        ]
        #expect(try await Self.read(json, fake: fake, environment: environment) == ["sts:aws:eu-west-1"])
        // The signature, against a vector computed apart.
        let token = try GoogleAWSSource.signedRequest(
            url: "https://sts.us-east-2.amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15", region: "us-east-2",
            credentials: S3Credentials(
                accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "token-1"
            ),
            audience: FakeCloudStore.federationAudience, date: Date(timeIntervalSince1970: 1_767_323_045))
        let decoded = try #require(token.replacingOccurrences(of: "+", with: " ").removingPercentEncoding)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(decoded.utf8)) as? [String: Any])
        let headers = try #require(object["headers"] as? [[String: String]])
        #expect(
            headers.map { $0["key"] ?? "" } == [
                "Authorization", "Host", "X-Amz-Date", "X-Amz-Security-Token", "X-Goog-Cloud-Target-Resource",
            ])
        #expect(
            headers[0]["value"] == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260102/us-east-2/sts/aws4_request, "
                + "SignedHeaders=host;x-amz-date;x-amz-security-token;x-goog-cloud-target-resource, "
                + "Signature=339cf93c3cb0aa90492a1e968f64d99e18e272433915c966f9e84d374c469161")
        #expect(headers[2]["value"] == "20260102T030405Z")
        #expect(object["method"] as? String == "POST")
    }

    @Test func aWorkforceUsersRefreshTokenIsRotated() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let credentials = try GoogleCredentials(json: fake.externalAuthorizedUser(), environment: [:])
        #expect("\(credentials)" == "workforce user \(FakeCloudStore.workforceAudience) (client fed-client)")
        let endpoint = try #require(URL(string: fake.base + "/storage/v1/"))
        let client = GCSClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(30))
        func read() async throws -> Data? {
            try await client.object(bucket: "images", key: "a.png", query: nil, maxSize: 1 << 20)?.data
        }
        #expect(try await read() == Data([1, 2, 3]))
        // The token expires (a 401 forgets it); the next is asked with the refresh token the first answer rotated.
        fake.expireTokens()
        await #expect(throws: WebImageError.self) { _ = try await read() }
        #expect(try await read() == Data([1, 2, 3]))
        #expect(fake.state.withLock { $0.identityRequests } == ["workforce:wf-refresh-0", "workforce:wf-refresh-1"])
        try await client.shutdown()
    }

    @Test func theFilesURLsAreChecked() throws {
        func parse(_ changes: [String: Any], source: [String: Any] = ["file": "/t"]) throws {
            var object: [String: Any] = [
                "type": "external_account", "audience": FakeCloudStore.federationAudience,
                "subject_token_type": Self.jwtType, "token_url": "https://sts.googleapis.com/v1/token",
                "credential_source": source,
            ]
            object.merge(changes) { $1 }
            let data = try JSONSerialization.data(withJSONObject: object)
            _ = try GoogleCredentials(json: String(decoding: data, as: UTF8.self), environment: [:])
        }
        // Google's hosts (in the file's universe) and loopback addresses are accepted.
        try parse([:])
        try parse(["token_url": "https://sts.europe-west1.rep.googleapis.com/v1/token"])
        try parse(["token_url": "https://sts.example.com/v1/token", "universe_domain": "example.com"])
        try parse(["token_url": "http://127.0.0.1:9/v1/token"])
        try parse([
            "service_account_impersonation_url":
                "https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/a@b:generateAccessToken"
        ])
        let aws: [String: Any] = [
            "environment_id": "aws1",
            "region_url": "http://169.254.169.254/latest/meta-data/placement/availability-zone",
            "url": "http://[fd00:ec2::254]/latest/meta-data/iam/security-credentials",
            "regional_cred_verification_url": "https://sts.{region}.amazonaws.com?Action=GetCallerIdentity",
        ]
        try parse([:], source: aws)
        // Anything else is refused before any request.
        for (changes, source) in [
            (["token_url": "https://sts.evil.com/v1/token"], ["file": "/t"]),
            (["token_url": "http://sts.googleapis.com/v1/token"], ["file": "/t"]),
            (["token_url": "https://sts.googleapis.com.evil.com/v1/token"], ["file": "/t"]),
            (["service_account_impersonation_url": "https://evil.com/x:generateAccessToken"], ["file": "/t"]),
            (["workforce_pool_user_project": "p"], ["file": "/t"]),
            (["audience": ""], ["file": "/t"]),
            ([:], ["executable": ["command": "/bin/true", "timeout_millis": 1000]]),
            ([:], ["url": "file:///etc/passwd"]),
            ([:], aws.merging(["url": "http://10.0.0.1/creds"]) { $1 }),
            ([:], aws.merging(["environment_id": "aws2"]) { $1 }),
            ([:], ["file": "/t", "format": ["type": "json"]]),
            ([:], [:]),
        ] as [([String: Any], [String: Any])] {
            #expect(throws: CloudStoreError.self, "\(changes) \(source)") { try parse(changes, source: source) }
        }
    }
}
