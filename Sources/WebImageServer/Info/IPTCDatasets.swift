import Foundation
import WebImage

/// Reading Photoshop image resources and the IPTC-IIM datasets in them, as imgproxy's `imagemeta` reads them.
enum IPTCDatasets {
    /// The IIM bytes of `resources`' IPTC resource (0x0404), if any.
    static func iim(in resources: Data) -> [UInt8]? {
        IPTCMetadata.resource(IPTCMetadata.iptcResource, in: [UInt8](resources)).map(Array.init)
    }

    /// Every dataset of `iim`, in order: bytes before a dataset's 0x1C marker are skipped, an extended length of 4
    /// or 8 bytes is read, another ends the datasets, and a dataset cut short keeps the bytes there are (imgproxy's
    /// `iptc.Parse`).
    static func datasets(_ iim: [UInt8]) -> [(IPTCFields.Key, [UInt8])] {
        var found: [(IPTCFields.Key, [UInt8])] = []
        var offset = 0
        while iim.count - offset >= 5 {
            guard iim[offset] == 0x1C else {
                offset += 1
                continue
            }
            let key = IPTCFields.Key(iim[offset + 1], iim[offset + 2])
            let short = Int(iim[offset + 3]) << 8 | Int(iim[offset + 4])
            offset += 5
            var size = short
            if short >= 0x8000 {
                let count = short & 0x7FFF
                guard count == 4 || count == 8, iim.count - offset >= count else { break }
                let bytes = iim[offset..<(offset + count)]
                offset += count
                // A length past the data there is keeps what is left.
                size =
                    bytes.dropLast(4).contains { $0 != 0 } ? Int.max : bytes.suffix(4).reduce(0) { $0 << 8 | Int($1) }
            }
            let end = offset + min(size, iim.count - offset)
            found.append((key, Array(iim[offset..<end])))
            offset = end
        }
        return found
    }

    /// imgproxy Pro's `photoshop` member: the resolution resource (0x03ED) of `resources`, if it has one whole.
    static func photoshop(_ resources: Data) -> [(String, JSONValue)] {
        guard let found = IPTCMetadata.resource(0x03ED, in: [UInt8](resources)), found.count >= 16 else { return [] }
        let bytes = Array(found)
        func number(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
        func resolution(_ at: Int) -> JSONValue {
            let fixed = number(at, 4)
            return fixed % 65_536 == 0 ? .int(fixed / 65_536) : .number(Double(fixed) / 65_536)
        }
        let resolutionUnits = [1: "inches", 2: "cm"]
        let sizeUnits = [1: "inches", 2: "cm", 3: "points", 4: "picas", 5: "columns"]
        func unit(_ names: [Int: String], _ at: Int) -> JSONValue { .string(names[number(at, 2)] ?? "unknown") }
        return [
            (
                "resolution",
                .object([
                    ("XResolution", resolution(0)), ("XResolutionUnit", unit(resolutionUnits, 4)),
                    ("WidthUnit", unit(sizeUnits, 6)), ("YResolution", resolution(8)),
                    ("YResolutionUnit", unit(resolutionUnits, 12)), ("HeightUnit", unit(sizeUnits, 14)),
                ])
            )
        ]
    }
}
