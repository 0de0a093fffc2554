import Foundation

/// A separable convolution of RGBA8 pixels: a horizontal pass into float rows, then a vertical pass back to RGBA8.
/// Colour is premultiplied by alpha in between. Used by ``Resampler`` and ``Blur``.
///
/// Output rows are split into bands, one per core. Each band (a ``ConvolutionBand``) filters the source rows it needs
/// horizontally into a ring of as many rows as the vertical filter has taps, so the float rows stay in the cache and
/// the whole image never exists in floats.
struct SeparableConvolution {
    let horizontal: ResamplingWeights
    let vertical: ResamplingWeights

    /// The convolved pixels; with `opaque`, premultiplication is skipped; with `linear`, colour is convolved in
    /// linear light.
    func apply(to source: PixelBuffer, opaque: Bool, linear: Bool = false) -> PixelBuffer {
        let (horizontal, vertical) = (horizontal, vertical)
        let size = PixelSize(width: horizontal.outputSize, height: vertical.outputSize)
        return PixelBuffer(width: size.width, height: size.height) { pixels in
            source.bytes.withUnsafeBufferPointer { sourceBytes in
                let input = BandMemory(UnsafeMutablePointer(mutating: sourceBytes.baseAddress!))
                let output = BandMemory(pixels.baseAddress!)
                Self.parallelBands(size.height) { rows in
                    var band = ConvolutionBand(
                        horizontal: horizontal, vertical: vertical, sourceWidth: source.width, opaque: opaque,
                        linear: linear)
                    for row in rows {
                        band.filterRow(
                            row, source: { input.bytes(at: $0 * source.bytesPerRow, count: source.bytesPerRow) },
                            into: output.mutableBytes(at: row * size.width * 4, count: size.width * 4))
                    }
                }
            }
        }
    }

    /// As ``apply(to:opaque:linear:)``, on 16-bit samples.
    func apply(to source: PixelBuffer16, opaque: Bool, linear: Bool = false) -> PixelBuffer16 {
        let (horizontal, vertical) = (horizontal, vertical)
        let size = PixelSize(width: horizontal.outputSize, height: vertical.outputSize)
        return PixelBuffer16(width: size.width, height: size.height) { pixels in
            source.samples.withUnsafeBufferPointer { sourceSamples in
                let input = BandMemory(UnsafeMutablePointer(mutating: sourceSamples.baseAddress!))
                let output = BandMemory(pixels.baseAddress!)
                let (rowSamples, outputRow) = (source.samplesPerRow, size.width * 4)
                Self.parallelBands(size.height) { rows in
                    var band = ConvolutionBand(
                        horizontal: horizontal, vertical: vertical, sourceWidth: source.width, opaque: opaque,
                        linear: linear, wide: true)
                    for row in rows {
                        band.filterRow(
                            row, source: { input.bytes(at: $0 * rowSamples, count: rowSamples * 2) },
                            into: output.mutableBytes(at: row * outputRow, count: outputRow * 2))
                    }
                }
            }
        }
    }

    /// Runs `body` over bands of `0..<count`, on every core when there is enough work.
    private static func parallelBands(_ count: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(ProcessInfo.processInfo.activeProcessorCount, max(1, count / 64))
        guard bands > 1 else { return body(0..<count) }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((band * count / bands)..<((band + 1) * count / bands))
        }
    }
}

/// Memory shared by the bands of one `concurrentPerform` call.
///
/// `@unchecked Sendable` with no lock: during the call, bands only read memory that no band writes, or write
/// disjoint row ranges of the output; the memory outlives the call that uses it.
private struct BandMemory<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

    /// `count` bytes from the element at `offset`.
    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    /// `count` writable bytes from the element at `offset`.
    func mutableBytes(at offset: Int, count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base + offset, count: count)
    }
}
