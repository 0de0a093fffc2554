/// The orientation of a HEIF-family image (AVIF, HEIC) from its container's `irot` and `imir` properties.
///
/// HEIF rotates first (`irot`: anticlockwise, in quarter turns), then mirrors (`imir`: mode 0 exchanges top and
/// bottom, mode 1 exchanges left and right). The pair maps onto the eight EXIF orientations, so decoders can use
/// ``PixelBuffer/oriented(from:)``.
enum HEIFOrientation {
    /// The EXIF orientation equal to rotating by `quarterTurns` anticlockwise, then mirroring by `mirrorMode`
    /// (`nil` for no `imir`).
    static func orientation(quarterTurns: Int, mirrorMode: Int?) -> ImageOrientation {
        // Rows: quarter turns 0...3; columns: no mirror, mode 0 (top-bottom), mode 1 (left-right).
        let table = [[1, 4, 2], [8, 5, 7], [3, 2, 4], [6, 7, 5]]
        let turns = ((quarterTurns % 4) + 4) % 4
        let column = mirrorMode.map { $0 == 0 ? 1 : 2 } ?? 0
        return ImageOrientation(rawValue: table[turns][column]) ?? .up
    }
}
