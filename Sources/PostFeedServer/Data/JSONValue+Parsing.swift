import Foundation
import PostFeed

/// Parsing goes through PostFeed's strict RFC 8259 parser (`JSONParser`), building this
/// module's order-preserving values: keys in document order, numbers as written.
extension JSONValue: JSONTreeValue {
    /// Parses one JSON document; throws `JSONParseError` naming what is wrong and where.
    static func parse(_ bytes: some ContiguousBytes) throws(JSONParseError) -> JSONValue {
        try JSONParser<JSONValue>.parse(bytes)
    }

    static func jsonNull() -> JSONValue { .null }
    static func jsonBool(_ value: Bool) -> JSONValue { .bool(value) }
    static func jsonNumber(literal: String, integral: Bool) -> JSONValue? { .number(literal) }
    static func jsonString(_ value: String) -> JSONValue { .string(value) }
    static func jsonArray(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    static func jsonObject(_ members: [(key: String, value: JSONValue)]) -> JSONValue { .object(members) }
}
