/// Applies transformers one after another; its key is theirs joined with `|`.
public struct TransformerPipeline: ImageTransforming {
    /// The transformers, applied in order.
    public let transformers: [any ImageTransforming]

    /// A pipeline of `transformers`, applied in order.
    public init(_ transformers: [any ImageTransforming]) { self.transformers = transformers }

    public var key: String { transformers.map(\.key).joined(separator: "|") }

    public func transform(_ image: Image) throws(WebImageError) -> Image {
        var image = image
        for transformer in transformers { image = try transformer.transform(image) }
        return image
    }

    /// What the first transformer needs: later ones see its output, not the source.
    public func minimumSourceSize(for original: PixelSize) -> PixelSize? {
        transformers.first?.minimumSourceSize(for: original)
    }

    public func transform(_ image: Image, shrunkFrom original: PixelSize) throws(WebImageError) -> Image {
        guard let first = transformers.first else { return image }
        var image = try first.transform(image, shrunkFrom: original)
        for transformer in transformers.dropFirst() { image = try transformer.transform(image) }
        return image
    }
}
