import Hummingbird

extension ImageResponder {
    /// The request's client hints when ``HTTPConfiguration/enablesClientHints`` is on; ``ClientHints/none``,
    /// without reading a header, otherwise.
    func clientHints(_ request: Request) -> ClientHints {
        guard configuration.http.enablesClientHints else { return .none }
        let headers = request.headers
        return ClientHints(
            secCHDPR: headers[Self.secCHDPR], dpr: headers[Self.dprHeader], secCHWidth: headers[Self.secCHWidth],
            width: headers[Self.widthHeader])
    }

    /// The `Vary` header of images and 304s, as imgproxy's detector builds it: `Accept` when the server negotiates
    /// formats, then `Sec-CH-DPR, DPR, Sec-CH-Width, Width` with client hints; `nil` when neither. Constant texts: a
    /// hit builds no string for it.
    var vary: String? {
        guard configuration.http.enablesClientHints else { return negotiates ? "Accept" : nil }
        return negotiates ? "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width" : "Sec-CH-DPR, DPR, Sec-CH-Width, Width"
    }

    static let secCHDPR = HTTPFields.Element.Name("Sec-CH-DPR")!
    static let dprHeader = HTTPFields.Element.Name("DPR")!
    static let secCHWidth = HTTPFields.Element.Name("Sec-CH-Width")!
    static let widthHeader = HTTPFields.Element.Name("Width")!
}
