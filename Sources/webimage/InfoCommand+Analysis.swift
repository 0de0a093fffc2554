import Foundation
import WebImage
import WebImageServer

extension InfoCommand {
    /// The `/info` options the flags ask for, `nil` when none does (the header report is printed then).
    var analysisOptions: String? {
        var options: [String] = infoOptions.map { [$0] } ?? []
        if average { options.append("avg:1") }
        if dominantColors { options.append("dc:1:1") }
        if let blurhash { options.append("bh:" + blurhash) }
        if thumbHash { options.append("th:1") }
        if perceptualHash { options.append("ph:1") }
        if let palette { options.append("p:\(palette)") }
        if let hashsums { options.append("chs:" + hashsums.replacingOccurrences(of: ",", with: ":")) }
        return options.isEmpty ? nil : options.joined(separator: "/")
    }

    /// Prints the `/info` JSON of the source for `options`; a bad option exits 64, an unreadable image 65.
    func printAnalysis(_ options: String) async throws {
        let parsed: InfoOptions
        do throws(ImageServerError) {
            parsed = try InfoOptions(parsing: options)
        } catch {
            printError("webimage: \(error.message)")
            throw ExitStatus.usage
        }
        let data: Data
        do throws(WebImageError) {
            data = try await SourceReader.read(source, timeout: timeout)
        } catch {
            printError("webimage: \(source): \(error)")
            throw ExitStatus.status(for: error)
        }
        do throws(ImageServerError) {
            print(try parsed.report(for: data))
        } catch {
            printError("webimage: \(source): \(error.message)")
            throw ExitStatus.decode
        }
    }
}
