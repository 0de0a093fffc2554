import Foundation
import FuzzDriver
import WebImageServer

// libFuzzer target: the server's SVG sanitiser on each input, then the sanitiser again on its own output, which must
// be accepted and unchanged (see Makefile: make fuzz). Typed errors are not findings.
runLibFuzzer { data in
    guard let once = try? SVGSanitizer().sanitize(data) else { return }
    guard let twice = try? SVGSanitizer().sanitize(once) else {
        preconditionFailure("the sanitiser refused its own output")
    }
    precondition(twice == once, "sanitising twice changed the output")
}
