import Foundation
import Testing

@testable import WebImageStores

/// The AWS shared files read as botocore reads them (Python's configparser, then nested blocks), and refused with the
/// line when it would refuse them.
@Suite struct AWSConfigFileTests {
    private func parse(_ text: String) throws(S3ConfigurationError) -> [String: [String: AWSConfigValue]] {
        try AWSConfigFile(text: text, path: "/tmp/config").sections
    }

    @Test func sectionsOptionsAndComments() throws {
        let sections = try parse(
            """
            # a comment
            [default]
            aws_access_key_id = AKIDEXAMPLE
              ; an indented comment
            AWS_Secret_Access_Key:  wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY
            region=eu-west-1 # not a comment: botocore keeps it

            [profile dev] ; after the bracket is ignored
            endpoint_url = http://127.0.0.1:8333
            empty =
            """)
        #expect(
            sections["default"] == [
                "aws_access_key_id": .text("AKIDEXAMPLE"),
                "aws_secret_access_key": .text("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                "region": .text("eu-west-1 # not a comment: botocore keeps it"),
            ])
        #expect(sections["profile dev"] == ["endpoint_url": .text("http://127.0.0.1:8333"), "empty": .text("")])
    }

    @Test func nestedBlocksAndContinuations() throws {
        let sections = try parse(
            "[profile a]\r\ns3 =\r\n    addressing_style = virtual\r\n\r\n    # inside\r\n"
                + "    signature_version=s3v4\r\nnote = first\r\n  second\r\n[services local]\r\ns3 =\r\n"
                + "  endpoint_url = http://localhost:9000\r\n")
        #expect(sections["profile a"]?["s3"] == .nested(["addressing_style": "virtual", "signature_version": "s3v4"]))
        #expect(sections["profile a"]?["note"] == .text("first\nsecond"))
        #expect(sections["services local"]?["s3"]?.nested?["endpoint_url"] == "http://localhost:9000")
    }

    @Test func defaultSectionAppliesToEverySectionAndAByteOrderMarkIsSkipped() throws {
        let sections = try parse("\u{FEFF}[DEFAULT]\nregion = us-west-2\n[a]\nx = 1\n[b]\nregion = eu-north-1\n")
        #expect(sections["a"] == ["region": .text("us-west-2"), "x": .text("1")])
        #expect(sections["b"] == ["region": .text("eu-north-1")])
        #expect(sections["DEFAULT"] == nil)
    }

    @Test(arguments: [
        ("region = x\n[default]\n", 1, "before any [section]"),
        ("[default]\nregion = x\njust words\n", 3, "neither [section]"),
        ("[a]\nx = 1\n[b]\n[a]\n", 4, "duplicate section [a]"),
        ("[a]\nRegion = 1\nregion = 2\n", 3, "duplicate option 'region'"),
        ("[a]\ns3 =\n  addressing_style = path\n  nonsense\n", 4, "nested line without '='"),
        ("[a]\n = value\n", 2, "without a name"),
        ("[a]\n[]\n", 2, "neither [section]"),
    ])
    func malformedFilesNameTheLine(text: String, line: Int, reason: String) {
        let error = #expect(throws: S3ConfigurationError.self) { try parse(text) }
        guard case .malformedFile(let path, let number, let why)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(path == "/tmp/config")
        #expect(number == line)
        #expect(why.contains(reason), "\(why)")
    }

    @Test func filesAreBoundedAndMustBeUTF8() throws {
        let directory = try LocalProcess.temporaryDirectory("aws-config")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("none").path
        #expect(try AWSConfigFile.load(path: missing) == nil)
        let large = directory.appendingPathComponent("large")
        try Data(repeating: UInt8(ascii: "#"), count: AWSConfigFile.maxSize + 1).write(to: large)
        #expect(throws: S3ConfigurationError.unreadableFile(path: large.path, reason: "is larger than 1 MiB")) {
            try AWSConfigFile.load(path: large.path)
        }
        let binary = directory.appendingPathComponent("binary")
        try Data([0x5B, 0x61, 0x5D, 0x0A, 0xFF, 0xFE]).write(to: binary)
        #expect(throws: S3ConfigurationError.malformedFile(path: binary.path, line: 1, reason: "is not UTF-8 text")) {
            try AWSConfigFile.load(path: binary.path)
        }
        #expect(throws: S3ConfigurationError.unreadableFile(path: directory.path, reason: "is a directory")) {
            try AWSConfigFile.load(path: directory.path)
        }
    }
}
