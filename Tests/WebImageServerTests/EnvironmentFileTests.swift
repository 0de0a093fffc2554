import Testing

@testable import WebImageServer

/// imgproxy's `IMGPROXY_ENV_LOCAL_FILE_PATH` file, read as the dotenv parser imgproxy pins (godotenv 1.3.1) reads it.
@Suite("Environment file")
struct EnvironmentFileTests {
    private func parse(_ text: String, _ environment: [String: String] = [:]) throws -> [String: String] {
        Dictionary(try EnvironmentFile.parse(text, environment: environment).map { ($0.name, $0.value) }) { $1 }
    }

    @Test func linesKeysAndComments() throws {
        let values = try parse(
            """
            # a comment
              IMGPROXY_KEY=abc
            export IMGPROXY_SALT = def\r
            IMGPROXY_TTL: 60
            IMGPROXY_BIND=:8080 # the port
            IMGPROXY_PRESETS="a=rs:fit:10#x" # quoted hash kept

            exportIMGPROXY_X=1
            IMGPROXY_KEY=again
            """)
        #expect(values["IMGPROXY_KEY"] == "again")
        #expect(values["IMGPROXY_SALT"] == "def")
        #expect(values["IMGPROXY_TTL"] == "60")
        #expect(values["IMGPROXY_BIND"] == ":8080")
        #expect(values["IMGPROXY_PRESETS"] == "a=rs:fit:10#x")
        #expect(values["exportIMGPROXY_X"] == "1")
        #expect(values.count == 6)
    }

    @Test func quotesEscapesAndVariables() throws {
        let values = try parse(
            #"""
            A='single $HOME \n'
            B="double\nline \"q\" \$HOME"
            C=${A}-$HOME-${MISSING}-$lower
            D="$(HOME)"
            E=x
            F=\$HOME
            G=$
            """#, ["HOME": "/root"])
        #expect(values["A"] == #"single $HOME \n"#)
        #expect(values["B"] == "double\nline \"q\" $HOME")
        #expect(values["C"] == #"single $HOME \n-/root--$lower"#)
        #expect(values["D"] == "/root)")
        #expect(values["E"] == "x")
        #expect(values["F"] == "$HOME")
        #expect(values["G"] == "$")
    }

    @Test func aLineWithoutASeparatorIsAnError() {
        #expect(throws: EnvironmentFile.ParseError(line: 2)) { try parse("A=1\nJUST_A_WORD\n") }
    }

    /// Whatever the bytes, the parser returns or throws, and every key is a line's text before its separator.
    @Test(arguments: 0..<200)
    func anyTextParsesOrFails(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let alphabet = Array("AZ_09=:#'\"\\${}() \t\r\nexport")
        let count = Int(generator.next() % 120)
        let text = String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        if let entries = try? EnvironmentFile.parse(text, environment: ["A": "1"]) {
            #expect(entries.allSatisfy { !$0.name.contains("\n") })
        }
    }
}
