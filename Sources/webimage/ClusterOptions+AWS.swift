import ArgumentParser
import Foundation
import Logging
import WebImageServer
import WebImageStores

extension ClusterOptions {
    /// The role `role` to assume through STS in `region` (the S3 client's, as imgproxy's STS client has it), at the
    /// endpoint the AWS SDKs would use (`AWS_ENDPOINT_URL_STS`…), logged at start without a secret.
    static func assumeRole(
        _ role: (arn: String, externalID: String?), region: String, logger: Logger
    ) throws -> S3AssumeRole {
        let sts: (url: URL, source: String)
        do { sts = try S3Environment.process.endpoint(of: .sts, region: region) } catch {
            throw ValidationError("--s3-assume-role-arn: \(error)")
        }
        logger.info(
            "S3 sources assume a role",
            metadata: ["role": "\(role.arn)", "sts_endpoint": "\(sts.url)", "sts_endpoint_from": "\(sts.source)"])
        return S3AssumeRole(roleARN: role.arn, externalID: role.externalID, endpoint: sts.url, region: region)
    }

    /// `map` checked as imgproxy checks it: no empty ARN; and each value that is an ARN an S3 access point's.
    static func accessPoints(_ map: [String: String]) throws -> [String: String] {
        for (name, arn) in map.sorted(by: { $0.key < $1.key }) {
            guard !arn.isEmpty else {
                throw ValidationError("IMGPROXY_S3_ACCESS_POINTS: access point \"\(name)\" ARN is empty")
            }
            do { try S3ImageLoader.checkAccessPoint(arn) } catch {
                throw ValidationError("IMGPROXY_S3_ACCESS_POINTS: \(name): \(error)")
            }
        }
        return map
    }

    /// KMS's endpoint, found as the AWS SDKs find it, in the S3 source client's `region`; KMS is signed with the S3
    /// client's credentials (an assumed role's when there is one), as imgproxy's KMS client shares its config.
    static func kms(region: String, logger: Logger) throws -> URL {
        let kms: (url: URL, source: String)
        do { kms = try S3Environment.process.endpoint(of: .kms, region: region) } catch {
            throw ValidationError("--s3-use-decryption-client: \(error)")
        }
        logger.info(
            "S3 sources are decrypted", metadata: ["kms_endpoint": "\(kms.url)", "kms_endpoint_from": "\(kms.source)"])
        return kms.url
    }
}
