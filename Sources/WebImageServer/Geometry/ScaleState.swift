import WebImage

/// imgproxy's `calcScale`, `calcSizes` and `limitScale`, on the size to scale (the source after the crop).
struct ScaleState {
    let options: ProcessingOptions
    let toScale: PixelSizeValues
    var wScale = 1.0
    var hScale = 1.0
    var dprScale = 1.0
    var targetWidth = 0
    var targetHeight = 0
    var scaledWidth = 0
    var scaledHeight = 0
    var resultCropWidth = 0
    var resultCropHeight = 0
    var extendAspectRatioWidth = 0
    var extendAspectRatioHeight = 0

    typealias PixelSizeValues = (width: Int, height: Int)

    init(options: ProcessingOptions, toScale size: PixelSize) {
        self.options = options
        toScale = (size.width, size.height)
        calcScale()
        calcSizes()
    }

    private mutating func calcScale() {
        let o = options
        var wShrink = 1.0
        var hShrink = 1.0
        let srcW = Double(toScale.width)
        let srcH = Double(toScale.height)
        let dstW = o.width != 0 ? Double(o.width) : srcW
        let dstH = o.height != 0 ? Double(o.height) : srcH
        if dstW != srcW { wShrink = srcW / dstW }
        if dstH != srcH { hShrink = srcH / dstH }
        if wShrink != 1 || hShrink != 1 {
            var type = o.resizingType
            if type == .auto {
                let srcD = srcW - srcH
                let dstD = dstW - dstH
                type = (srcD >= 0 && dstD >= 0) || (srcD < 0 && dstD < 0) ? .fill : .fit
            }
            if o.width == 0 && type != .force {
                wShrink = hShrink
            } else if o.height == 0 && type != .force {
                hShrink = wShrink
            } else if type == .fit {
                wShrink = max(wShrink, hShrink)
                hShrink = wShrink
            } else if type == .fill || type == .fillDown {
                wShrink = min(wShrink, hShrink)
                hShrink = wShrink
            }
        }
        wShrink /= o.zoomWidth
        hShrink /= o.zoomHeight
        dprScale = o.dpr
        if !o.enlarge {
            let minShrink = min(wShrink, hShrink)
            if minShrink < 1 {
                wShrink /= minShrink
                hShrink /= minShrink
                if !o.extend { dprScale /= minShrink }
            }
            dprScale = min(dprScale, min(wShrink, hShrink))
        }
        if o.minWidth > 0 {
            let minShrink = srcW / Double(o.minWidth)
            if minShrink < wShrink {
                hShrink /= wShrink / minShrink
                wShrink = minShrink
            }
        }
        if o.minHeight > 0 {
            let minShrink = srcH / Double(o.minHeight)
            if minShrink < hShrink {
                wShrink /= hShrink / minShrink
                hShrink = minShrink
            }
        }
        wShrink /= dprScale
        hShrink /= dprScale
        wShrink = min(wShrink, srcW)
        hShrink = min(hShrink, srcH)
        wScale = 1 / wShrink
        hScale = 1 / hShrink
    }

    mutating func calcSizes() {
        let o = options
        targetWidth = PixelMath.scale(o.width, dprScale * o.zoomWidth)
        targetHeight = PixelMath.scale(o.height, dprScale * o.zoomHeight)
        scaledWidth = PixelMath.scale(toScale.width, wScale)
        scaledHeight = PixelMath.scale(toScale.height, hScale)
        resultCropWidth = targetWidth
        resultCropHeight = targetHeight
        if o.resizingType == .fillDown, !o.enlarge, scaledWidth > 0, scaledHeight > 0 {
            let diffW = Double(targetWidth) / Double(scaledWidth)
            let diffH = Double(targetHeight) / Double(scaledHeight)
            if diffW > diffH && diffW > 1 {
                resultCropHeight = PixelMath.scale(scaledWidth, Double(targetHeight) / Double(targetWidth))
                resultCropWidth = scaledWidth
            } else if diffH > diffW && diffH > 1 {
                resultCropWidth = PixelMath.scale(scaledHeight, Double(targetWidth) / Double(targetHeight))
                resultCropHeight = scaledHeight
            }
        }
        calcExtendAspectRatio()
    }

    /// The canvas of the requested aspect ratio around the output (imgproxy's `ExtendAspectRatioWidth/Height`);
    /// as imgproxy, the values stay when the ratios already match.
    private mutating func calcExtendAspectRatio() {
        guard options.extendAspectRatio, targetWidth > 0, targetHeight > 0 else { return }
        let outWidth = PixelMath.minNonZero(scaledWidth, resultCropWidth)
        let outHeight = PixelMath.minNonZero(scaledHeight, resultCropHeight)
        guard outWidth > 0, outHeight > 0 else { return }
        let diffW = Double(targetWidth) / Double(outWidth)
        let diffH = Double(targetHeight) / Double(outHeight)
        if diffH > diffW {
            extendAspectRatioHeight = PixelMath.scale(outWidth, Double(targetHeight) / Double(targetWidth))
            extendAspectRatioWidth = outWidth
        } else if diffW > diffH {
            extendAspectRatioWidth = PixelMath.scale(outHeight, Double(targetWidth) / Double(targetHeight))
            extendAspectRatioHeight = outHeight
        }
    }

    /// Scales down so that the result's longest side is at most `maxDimension` (0 = no limit).
    mutating func limit(_ maxDimension: Int) {
        guard maxDimension > 0 else { return }
        var outWidth = PixelMath.minNonZero(scaledWidth, resultCropWidth)
        var outHeight = PixelMath.minNonZero(scaledHeight, resultCropHeight)
        if options.extend {
            outWidth = max(outWidth, targetWidth)
            outHeight = max(outHeight, targetHeight)
        } else if options.extendAspectRatio {
            outWidth = max(outWidth, extendAspectRatioWidth)
            outHeight = max(outHeight, extendAspectRatioHeight)
        }
        let padding = options.padding.scaled(by: dprScale)
        outWidth += padding.left + padding.right
        outHeight += padding.top + padding.bottom
        guard outWidth > maxDimension || outHeight > maxDimension else { return }
        let downScale = Double(maxDimension) / Double(max(outWidth, outHeight))
        wScale = max(wScale * downScale, 1 / Double(toScale.width))
        hScale = max(hScale * downScale, 1 / Double(toScale.height))
        dprScale *= downScale
        calcSizes()
    }
}
