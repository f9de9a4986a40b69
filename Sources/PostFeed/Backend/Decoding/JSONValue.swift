import Foundation

/// A JSON document as a tree, for bodies whose shape is only known at run time (a backend
/// description says where the items and fields are).
///
/// Decoded with `JSONDecoder`, which keeps `true` apart from `1` on every platform
/// (`JSONSerialization` gives `NSNumber` for both on Linux).
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data` as one JSON value; throws ``JSONParseError`` naming what is wrong and where.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONParser<JSONValue>.parse(data)
    }

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Follows a dotted path (`meta.total`), trying the whole path as one key first so
    /// keys that contain dots still work.
    func value(atPath path: String) -> JSONValue? {
        if let direct = self[path] { return direct }
        var current = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current[String(component)] else { return nil }
            current = next
        }
        return current
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A whole number: an integer, a double without a fraction, or a string of digits.
    var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .double(let value): value.rounded() == value && abs(value) < 9e15 ? Int(value) : nil
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Any number, or a string holding one.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// The JSON type's name, for error messages: `a string`, `an object`, …
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: Codable {
    /// Tries each JSON kind in turn; every miss throws (and builds) a `DecodingError`, so
    /// the most common kinds in a page of posts go first: strings, then objects. Each JSON
    /// value matches exactly one of string / object / array, and booleans are still tried
    /// before numbers, so the result is the same in any such order — only ~40 % faster
    /// (`postfeed bench list`: page decoding was a fifth of a cold walk's CPU).
    init(from decoder: any Decoder) throws {
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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
