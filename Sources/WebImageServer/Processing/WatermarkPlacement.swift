import WebImage

/// Where the copies of a watermark land on a canvas, whatever its pixels' depth: the rows of each copy that show.
enum WatermarkPlacement {
    /// Calls `row` for each visible row of a `layer`-sized layer placed with its top-left corner at every pair of
    /// `columns` and `rows` on `canvas` (the parts outside are cut), with the pixel indices, in the layer and in the
    /// canvas, of the row's first visible pixel, and how many pixels of it show.
    static func forEachRow(
        of layer: PixelSize, on canvas: PixelSize, columns: [Int], rows: [Int],
        _ row: (_ from: Int, _ to: Int, _ count: Int) -> Void
    ) {
        for top in rows {
            let ys = max(0, top)..<min(canvas.height, top + layer.height)
            guard !ys.isEmpty else { continue }
            for left in columns {
                let xs = max(0, left)..<min(canvas.width, left + layer.width)
                guard !xs.isEmpty else { continue }
                for y in ys {
                    row((y - top) * layer.width + xs.lowerBound - left, y * canvas.width + xs.lowerBound, xs.count)
                }
            }
        }
    }
}
