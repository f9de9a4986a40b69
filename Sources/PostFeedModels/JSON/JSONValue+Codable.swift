/// `Codable` for values inside other `Codable` types (a backend description decoded by
/// `JSONDecoder`). Parsing a whole body goes through ``JSONValue/parse(_:)`` instead,
/// which keeps member order and number spelling.
extension JSONValue: Codable {
    /// Tries each JSON kind in turn, the most common kinds in a page of posts first:
    /// strings, then booleans before numbers. Objects come back with sorted keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Numbers as `Int` when whole and exact, else `Double`; objects by key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let literal):
            if let value = Int(literal) {
                try container.encode(value)
            } else {
                try container.encode(Double(literal) ?? 0)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let members): try container.encode(Dictionary(members, uniquingKeysWith: { _, last in last }))
        }
    }
}
