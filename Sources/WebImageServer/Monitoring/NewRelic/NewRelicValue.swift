/// An attribute's value in New Relic's JSON APIs (Trace API spans, Event API events): text, a number or a flag.
enum NewRelicValue: Sendable, Equatable, Encodable {
    case string(String)
    case number(Double)
    case bool(Bool)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value.isFinite ? value : 0)
        case .bool(let value): try container.encode(value)
        }
    }
}

extension NewRelicValue: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self = .string(value) }
}
