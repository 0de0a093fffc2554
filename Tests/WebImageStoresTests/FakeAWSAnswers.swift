import Foundation
import Hummingbird

/// The answers of ``FakeAWS``: AWS's shapes for `AssumeRole`, `Decrypt`, `GetSecretValue` and
/// `GetParametersByPath`, and its error codes where a request asks for what the state does not have.
enum FakeAWSAnswers {
    static func assumeRole(_ state: FakeAWS.State) -> Response {
        let formatter = ISO8601DateFormatter()
        let credentials = state.roleCredentials
        let xml = """
            <AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>\
            <Credentials><AccessKeyId>\(credentials.accessKey)</AccessKeyId>\
            <SecretAccessKey>\(credentials.secretKey)</SecretAccessKey>\
            <SessionToken>\(credentials.sessionToken ?? "")</SessionToken>\
            <Expiration>\(formatter.string(from: Date().addingTimeInterval(state.roleLifetime)))</Expiration>\
            </Credentials></AssumeRoleResult></AssumeRoleResponse>
            """
        return Response(
            status: .ok, headers: [.contentType: "text/xml"], body: ResponseBody(byteBuffer: ByteBuffer(string: xml)))
    }

    static func json(_ operation: String, object: [String: Any], state: FakeAWS.State) -> Response {
        var answer: [String: Any]
        switch operation {
        case "Decrypt":
            guard let blob = object["CiphertextBlob"] as? String, let entry = state.dataKeys[blob],
                (object["EncryptionContext"] as? [String: String] ?? [:]) == entry.context
            else { return FakeAWS.error(400, "InvalidCiphertextException", json: true) }
            answer = ["Plaintext": entry.key.base64EncodedString(), "KeyId": "arn:aws:kms:us-east-1:1:key/fake"]
        case "GetSecretValue":
            let id = object["SecretId"] as? String ?? ""
            let version =
                (object["VersionId"] as? String).map { "#" + $0 } ?? (object["VersionStage"] as? String)
                .map { "@" + $0 } ?? ""
            guard let text = state.secretStrings[id + version] else {
                return FakeAWS.error(400, "ResourceNotFoundException", json: true)
            }
            answer = ["ARN": "arn:aws:secretsmanager:us-east-1:1:secret:\(id)", "Name": id, "SecretString": text]
        case "GetParametersByPath":
            let path = object["Path"] as? String ?? ""
            let matching = state.parameters.filter { $0.name.hasPrefix(path) }
            let start = Int(object["NextToken"] as? String ?? "0") ?? 0
            let page = matching.dropFirst(start).prefix(2)
            answer = [
                "Parameters": page.map { ["Name": $0.name, "Value": $0.value, "DataType": $0.type, "Type": "String"] }
            ]
            if start + 2 < matching.count { answer["NextToken"] = String(start + 2) }
        default:
            return FakeAWS.error(400, "UnknownOperationException", json: true)
        }
        let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/x-amz-json-1.1"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
