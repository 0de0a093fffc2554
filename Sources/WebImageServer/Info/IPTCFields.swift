import Foundation

/// The IPTC-IIM datasets of a source as imgproxy Pro's `/info` writes them (`iptc`): each known dataset under its
/// title, the value of a repeatable one as an array, numbers as numbers, binary values in base64, and the titles in
/// the sorted order Go writes a map in; `Name` and `Caption` repeat the Object Name and the Caption for older clients.
/// Datasets imgproxy does not know, or whose size is out of the standard's range, are left out, as imgproxy leaves
/// them (its `imagemeta/iptc`).
enum IPTCFields {
    /// How a dataset's bytes are read.
    enum Kind {
        case integer, text, binary
    }

    /// A dataset's record and number.
    struct Key: Hashable {
        let record: UInt8
        let dataset: UInt8

        init(_ record: UInt8, _ dataset: UInt8) {
            self.record = record
            self.dataset = dataset
        }
    }

    /// What imgproxy knows of a dataset.
    struct Tag {
        let title: String
        let kind: Kind
        let repeatable: Bool
        let sizes: ClosedRange<Int>

        init(_ title: String, _ kind: Kind, repeatable: Bool, sizes: ClosedRange<Int>) {
            (self.title, self.kind, self.repeatable, self.sizes) = (title, kind, repeatable, sizes)
        }
    }

    /// The JSON members of the IPTC in Photoshop image resources `resources` (a JPEG's `APP13`, a TIFF's datasets
    /// as the library carries them); empty when there are none.
    static func fields(_ resources: Data) -> [(String, JSONValue)] {
        guard let iim = IPTCDatasets.iim(in: resources) else { return [] }
        var values: [Key: [JSONValue]] = [:]
        for (key, bytes) in IPTCDatasets.datasets(iim) {
            guard let tag = IPTCTags.known[key], tag.sizes.contains(bytes.count) else { continue }
            let value = value(bytes, kind: tag.kind)
            values[key] = tag.repeatable ? (values[key] ?? []) + [value] : [value]
        }
        var members: [String: JSONValue] = [:]
        for (key, list) in values {
            guard let tag = IPTCTags.known[key], let first = list.first else { continue }
            members[tag.title] = tag.repeatable ? .array(list) : first
            if key == Key(2, 5) { members["Name"] = first }
            if key == Key(2, 120) { members["Caption"] = first }
        }
        return members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A dataset's value: a big-endian number of up to 4 bytes (imgproxy reads 3 bytes as 16 + 8 bits), the bytes
    /// in base64, or the text.
    static func value(_ bytes: [UInt8], kind: Kind) -> JSONValue {
        switch kind {
        case .integer:
            let used = bytes.prefix(4)
            return .int(used.reduce(0) { $0 << 8 | Int($1) })
        case .binary:
            return .string(Data(bytes).base64EncodedString())
        case .text:
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }
}
