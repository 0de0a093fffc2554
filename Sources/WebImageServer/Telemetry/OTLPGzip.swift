import CZlib

/// gzip for OTLP/HTTP bodies (`OTEL_EXPORTER_OTLP_COMPRESSION=gzip`, sent with `Content-Encoding: gzip`), with zlib,
/// which the image codecs link already: one deflate of the whole body at zlib's default level, in gzip's wrapper.
enum OTLPGzip {
    /// `bytes` as one gzip member.
    ///
    /// - Throws: ``OTLPExportError/compressionFailed(_:)`` with zlib's code when zlib cannot (out of memory).
    static func compressed(_ bytes: [UInt8]) throws(OTLPExportError) -> [UInt8] {
        var stream = z_stream()
        // Window bits 15 + 16: a gzip header and trailer around the deflate stream.
        var status = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .compressionFailed(status) }
        defer { deflateEnd(&stream) }
        var input = bytes
        // Room for the whole stream: deflateBound, plus gzip's 18 bytes of header and trailer.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 18)
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                status = deflate(&stream, Z_FINISH)
                return destination.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw .compressionFailed(status) }
        output.removeSubrange(produced...)
        return output
    }
}
