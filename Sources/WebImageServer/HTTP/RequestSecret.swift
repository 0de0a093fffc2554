/// imgproxy's `IMGPROXY_SECRET`: image requests must carry `Authorization: Bearer SECRET`, else 403.
struct RequestSecret: Sendable {
    /// `Bearer SECRET`, as the header must read.
    private let expected: [UInt8]

    /// The check of `secret`; `nil` for no secret or an empty one (imgproxy then asks for none).
    init?(_ secret: String?) {
        guard let secret, !secret.isEmpty else { return nil }
        expected = Array("Bearer \(secret)".utf8)
    }

    /// Throws 403 unless `authorization` is `Bearer SECRET`, compared in constant time (for headers of the right
    /// length), as imgproxy does, so the time of a refusal tells nothing of the secret.
    func check(_ authorization: String?) throws(ImageServerError) {
        let given = Array((authorization ?? "").utf8)
        guard given.count == expected.count else { throw Self.refusal }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        guard difference == 0 else { throw Self.refusal }
    }

    private static let refusal = ImageServerError(status: 403, "Invalid secret")
}
