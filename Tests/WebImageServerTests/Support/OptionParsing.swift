@testable import WebImageServer

/// What the option suites share: the options of a path of option segments, and the status a refused one gets.
protocol OptionParsing {}

extension OptionParsing {
    /// The options of `/x/PATH/plain/http://example.com/a.png`, without a signer.
    func options(_ path: String) throws -> ProcessingOptions {
        try ImageURLParser(signer: nil).parse("/x/\(path)/plain/http://example.com/a.png", now: 0).options
    }

    /// The status the parser refuses `path` with; `nil` when it parses.
    func status(_ path: String) -> Int? {
        do {
            _ = try options(path)
            return nil
        } catch let error as ImageServerError {
            return error.status
        } catch {
            return -1
        }
    }
}
