import Testing

/// imgproxy's AWS settings that stop `webimage serve` at start with exit status 64: an access point without an ARN
/// or with another service's, and a Secrets Manager or SSM that does not answer (loaded before anything else); and
/// the access points that start it.
@Suite("Server: AWS settings at start") struct ServeAWSSettingsTests {
    @Test(arguments: [
        (
            [
                "IMGPROXY_USE_S3": "1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "IMGPROXY_S3_ACCESS_POINTS": "p=",
            ],
            "access point \"p\" ARN is empty"
        ),
        (
            [
                "IMGPROXY_USE_S3": "1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "IMGPROXY_S3_ACCESS_POINTS": "p=arn:aws:sqs:us-east-1:1:queue",
            ],
            "is not an S3 access point's ARN"
        ),
        // An Outposts bucket is not an access point (its access points, like Multi-Region ones, are read).
        (
            [
                "IMGPROXY_USE_S3": "1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "IMGPROXY_S3_ACCESS_POINTS": "p=arn:aws:s3-outposts:us-east-1:1:outpost/op-1/bucket/b",
            ],
            "is not an S3 access point's ARN"
        ),
        // Loaded before anything else: a Secrets Manager that does not answer stops the start.
        (
            [
                "IMGPROXY_ENV_AWS_SECRET_ID": "prod", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "AWS_ENDPOINT_URL_SECRETS_MANAGER": "http://127.0.0.1:9",
            ],
            "can't retrieve config from AWS Secrets Manager"
        ),
        (
            [
                "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/prod", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
            ],
            "can't retrieve parameters from AWS SSM"
        ),
    ])
    func awsConfigurationErrorsExit64(environment: [String: String], mentions: String) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(["--peer-forward"], environment: environment)
        #expect(status == 64, "\(environment): \(error)")
        #expect(error.contains(mentions), "\(environment): \(error)")
        #expect(!error.contains("Fatal error"), "\(error)")
    }

    /// Multi-Region and Outposts access points (read with Signature Version 4A) start the server.
    @Test func version4AAccessPointsStart() async throws {
        let points =
            "global=arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap;"
            + "edge=arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01234567890123456/accesspoint/photos"
        let errors = try await ServeLifecycleTests.serve(
            environment: [
                "IMGPROXY_USE_S3": "1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                "AWS_REGION": "us-west-2", "IMGPROXY_S3_ACCESS_POINTS": points,
            ]
        ) { _ in }
        #expect(!errors.contains("IMGPROXY_S3_ACCESS_POINTS") && !errors.contains("not supported"), "\(errors)")
    }
}
