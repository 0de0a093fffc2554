import WebImage

/// Computes a ``ResultGeometry`` from the source size and the options, as imgproxy's `prepare.go` does.
public enum GeometryCalculator {
    /// The geometry for an upright source of `source` size.
    ///
    /// - Parameters:
    ///   - source: the source's size, upright.
    ///   - o: the request's processing options.
    ///   - maxResultDimension: the longest side the result may have (imgproxy's `max_result_dimension`); a larger
    ///     result is scaled down to it. 0 disables the limit.
    ///   - loaded: the size the source was decoded at (upright) when it was shrunk on load, `nil` (or `source`)
    ///     when not: the crop and the scale then apply to the smaller image as imgproxy's scale on load makes them
    ///     (`ScaleOnLoad`).
    public static func geometry(
        source: PixelSize, options o: ProcessingOptions, maxResultDimension: Int, loaded: PixelSize? = nil
    ) -> ResultGeometry {
        let cropWidth = cropSize(source.width, o.cropWidth)
        let cropHeight = cropSize(source.height, o.cropHeight)
        let toScale = PixelSize(
            width: PixelMath.minNonZero(cropWidth, source.width),
            height: PixelMath.minNonZero(cropHeight, source.height))
        var state = ScaleState(options: o, toScale: toScale)
        state.limit(maxResultDimension)

        let load = ScaleOnLoad(
            source: source, loaded: loaded ?? source, crop: PixelSize(width: cropWidth, height: cropHeight),
            gravity: o.effectiveCropGravity, wScale: state.wScale, hScale: state.hScale)
        let crop = cropStep(image: load.image, crop: load.crop, gravity: load.gravity, dpr: 1)
        let cropped = crop?.size ?? load.image
        // libvips' resize: each side times its scale, rounded.
        let scaled = PixelSize(
            width: max(1, PixelMath.scale(cropped.width, load.wScale)),
            height: max(1, PixelMath.scale(cropped.height, load.hScale)))
        let resultCrop = cropStep(
            image: scaled, crop: PixelSize(width: state.resultCropWidth, height: state.resultCropHeight),
            gravity: o.gravity, dpr: state.dprScale)
        let afterCrop = resultCrop?.size ?? scaled
        var canvas: ResultGeometry.Canvas?
        if o.extend, state.targetWidth > afterCrop.width || state.targetHeight > afterCrop.height {
            let size = PixelSize(
                width: max(state.targetWidth, afterCrop.width), height: max(state.targetHeight, afterCrop.height))
            let (x, y) = position(
                outer: size, inner: afterCrop, gravity: o.extendGravity, dpr: state.dprScale)
            canvas = ResultGeometry.Canvas(size: size, x: x, y: y)
        }
        let afterExtend = canvas?.size ?? afterCrop
        let aspectRatioCanvas = extendAspectRatio(
            afterExtend, state: state, gravity: o.extendAspectRatioGravity)
        let padding = paddingCanvas(aspectRatioCanvas?.size ?? afterExtend, o.padding.scaled(by: state.dprScale))
        return ResultGeometry(
            sourceSize: source, crop: crop, scaledSize: scaled, resultCrop: resultCrop, canvas: canvas,
            aspectRatioCanvas: aspectRatioCanvas, paddingCanvas: padding, dprScale: state.dprScale,
            preshrink: ScaleOnLoad.preshrink(source: source, wScale: state.wScale, hScale: state.hScale))
    }

    /// imgproxy's `extendAspectRatio`: a canvas of the computed size when it is larger than `image`. (imgproxy
    /// would cut a side that is smaller; the computed canvas is never smaller on either side, so the canvas keeps at
    /// least the image's size.)
    static func extendAspectRatio(
        _ image: PixelSize, state: ScaleState, gravity: GravityOption
    ) -> ResultGeometry.Canvas? {
        let width = state.extendAspectRatioWidth
        let height = state.extendAspectRatioHeight
        guard state.options.extendAspectRatio, width > 0, height > 0, width > image.width || height > image.height
        else { return nil }
        let size = PixelSize(width: max(width, image.width), height: max(height, image.height))
        let (x, y) = position(outer: size, inner: image, gravity: gravity, dpr: state.dprScale)
        return ResultGeometry.Canvas(size: size, x: x, y: y)
    }

    /// imgproxy's `padding`: the image embedded with `padding` (already scaled) on each side.
    static func paddingCanvas(_ image: PixelSize, _ padding: Padding) -> ResultGeometry.Canvas? {
        guard padding.isEnabled else { return nil }
        let size = PixelSize(
            width: image.width + padding.left + padding.right, height: image.height + padding.top + padding.bottom)
        return ResultGeometry.Canvas(size: size, x: padding.left, y: padding.top)
    }

    /// imgproxy's `CalcCropSize`: 0 = none, ≥ 1 = pixels, a fraction of `original` below that.
    static func cropSize(_ original: Int, _ crop: Double) -> Int {
        if crop == 0 { return 0 }
        if crop >= 1 { return PixelMath.round(crop.rounded(.towardZero)) }
        return max(1, PixelMath.scale(original, crop))
    }

    /// imgproxy's `cropImage`: nothing when the crop is empty or covers the image.
    static func cropStep(
        image: PixelSize, crop: PixelSize, gravity: GravityOption, dpr: Double
    ) -> ResultGeometry.CropStep? {
        if crop.width == 0 && crop.height == 0 { return nil }
        let kept = PixelSize(
            width: PixelMath.minNonZero(crop.width, image.width),
            height: PixelMath.minNonZero(crop.height, image.height))
        let clamped = PixelSize(width: min(kept.width, image.width), height: min(kept.height, image.height))
        if kept.width >= image.width && kept.height >= image.height { return nil }
        if gravity.kind == .smart { return .smart(clamped) }
        let (x, y) = position(outer: image, inner: clamped, gravity: gravity, dpr: dpr)
        return .rect(PixelRect(x: x, y: y, width: clamped.width, height: clamped.height))
    }

    /// imgproxy's `calcPosition`: where `inner` sits in `outer`, inside it, or with `allowsOverflow` (a watermark)
    /// anywhere it keeps at least one pixel inside.
    static func position(
        outer: PixelSize, inner: PixelSize, gravity: GravityOption, dpr: Double, allowsOverflow: Bool = false
    ) -> (Int, Int) {
        var left: Int
        var top: Int
        if gravity.kind == .focusPoint {
            left = PixelMath.scaleToEven(outer.width, gravity.x) - inner.width / 2
            top = PixelMath.scaleToEven(outer.height, gravity.y) - inner.height / 2
        } else {
            let offX =
                abs(gravity.x) >= 1
                ? PixelMath.roundToEven(gravity.x * dpr) : PixelMath.scaleToEven(outer.width, gravity.x)
            let offY =
                abs(gravity.y) >= 1
                ? PixelMath.roundToEven(gravity.y * dpr) : PixelMath.scaleToEven(outer.height, gravity.y)
            left = PixelMath.shrinkToEven(outer.width - inner.width + 1, 2) + offX
            top = PixelMath.shrinkToEven(outer.height - inner.height + 1, 2) + offY
            switch gravity.kind {
            case .north, .northEast, .northWest: top = offY
            case .south, .southEast, .southWest: top = outer.height - inner.height - offY
            default: break
            }
            switch gravity.kind {
            case .east, .northEast, .southEast: left = outer.width - inner.width - offX
            case .west, .northWest, .southWest: left = offX
            default: break
            }
        }
        if allowsOverflow {
            left = max(1 - inner.width, min(left, outer.width - 1))
            top = max(1 - inner.height, min(top, outer.height - 1))
        } else {
            left = max(0, min(left, outer.width - inner.width))
            top = max(0, min(top, outer.height - inner.height))
        }
        return (left, top)
    }
}
