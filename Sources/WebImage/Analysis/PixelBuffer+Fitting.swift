extension PixelBuffer {
    /// The buffer itself when both sides are at most `side`, else a copy resampled (box filter, aspect kept, at least
    /// 1x1) to fit in `side` x `side`: the analyses run on a bounded number of pixels whatever the source's size.
    func fitting(in side: Int) -> PixelBuffer {
        guard width > side || height > side else { return self }
        let scale = Double(side) / Double(max(width, height))
        let size = PixelSize(
            width: min(side, max(1, Int((Double(width) * scale).rounded()))),
            height: min(side, max(1, Int((Double(height) * scale).rounded()))))
        return Resampler(filter: .box).resample(self, to: size)
    }
}
