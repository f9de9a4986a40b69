import Foundation

/// A JSON document as a tree: what the client reads from any backend and the fixture
/// server sends back. One type for both sides.
///
/// It keeps what a round trip must not lose: object members in **document order** (a key
/// may repeat; lookups take the last, as `JSON.parse` does) and numbers **as written**
/// (`1e3`, `-0.50`), so the fixture server can send a dataset back exactly as it is on
/// disk. Equality is by value: numbers compare by their numeric value (`1.0 == 1`) and
/// objects as maps (member order and overwritten duplicates do not matter).
///
/// ```swift
/// let json = try JSONValue.parse(Data(#"{"meta": {"total": 30}, "posts": []}"#.utf8))
/// json.value(atPath: "meta.total")?.integerValue   // 30
/// json.serialized()                                  // {"meta":{"total":30},"posts":[]}
/// ```
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number's literal text, e.g. `42`, `-0.5`, `1e3`; checked against the JSON grammar
    /// when parsed. It may lie outside `Double`'s range (`1e999`): valid JSON, which only
    /// the field that reads it cannot use (``doubleValue`` and ``integerValue`` are `nil`,
    /// ``isOutOfRange`` is `true`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// Elements in document order.
    case array([JSONValue])
    /// Members in document order; a key may repeat.
    case object([(key: String, value: JSONValue)])

    /// Parses one JSON document (RFC 8259, see ``JSONParser``).
    /// - Throws: ``JSONParseError`` naming what is wrong and where.
    public static func parse(_ bytes: some ContiguousBytes) throws(JSONParseError) -> JSONValue {
        try JSONParser<JSONValue>.parse(bytes)
    }

    // MARK: Making values

    /// An integer number.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A floating-point number (finite; a non-finite one is `null`, as `JSON.stringify` writes it).
    public static func double(_ value: Double) -> JSONValue { value.isFinite ? .number("\(value)") : .null }

    /// An object from a dictionary, its members sorted by key so the text is stable.
    public static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    // MARK: Reading values

    /// The member `key` of an object (the last, when it repeats); `nil` for a missing key
    /// or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// Follows a dotted path (`meta.total`), trying the whole path as one key first so
    /// keys that contain dots still work. A component of decimal digits indexes an array
    /// from 0 (`_embedded.author.0.name`, `preview.images.0.source.url`); on an object it
    /// is a key like any other.
    public func value(atPath path: String) -> JSONValue? {
        if let direct = self[path] { return direct }
        var current = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current.child(component) else { return nil }
            current = next
        }
        return current
    }

    /// Why ``value(atPath:)`` finds nothing at `path`, in words for a message: `"wp:featuredmedia"
    /// missing`, `index 2 out of range (an array of 1 at "media_attachments")`,
    /// `"author" is a string, not an object or array`; `nil` when a value is there.
    public func missingReason(atPath path: String) -> String? {
        if self[path] != nil { return nil }
        var current = self
        var walked: [Substring] = []
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            let here = walked.isEmpty ? "the item" : "\"\(walked.joined(separator: "."))\""
            switch current {
            case .array(let elements):
                guard let index = Self.arrayIndex(component) else {
                    return "\(here) is an array, and \"\(component)\" is no index (indices are 0, 1, …)"
                }
                guard index < elements.count else {
                    return "index \(component) out of range (\(here) is an array of \(elements.count))"
                }
                current = elements[index]
            case .object:
                guard let next = current[String(component)] else {
                    return "\"\(walked.isEmpty ? component : walked.joined(separator: ".") + "." + component)\" missing"
                }
                current = next
            default:
                return "\(here) is \(current.typeDescription), not an object or array"
            }
            walked.append(component)
        }
        return nil
    }

    /// The member or element a path component names: an object's member, or an array's
    /// element when the component is an index.
    private func child(_ component: Substring) -> JSONValue? {
        switch self {
        case .object: return self[String(component)]
        case .array(let elements):
            guard let index = Self.arrayIndex(component), index < elements.count else { return nil }
            return elements[index]
        default: return nil
        }
    }

    /// A path component as an array index: 1 to 9 decimal digits (no sign, no space).
    static func arrayIndex(_ component: Substring) -> Int? {
        guard !component.isEmpty, component.utf8.count <= 9, component.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(component)
    }

    /// `true` for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The elements of an array, or `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// A whole number: an integer literal that fits `Int`, a number without a fraction
    /// below 2^53 (`3.0`, `3e0`), or a string of digits.
    public var integerValue: Int? {
        switch self {
        case .number(let literal): Self.integer(literal: literal)
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Any finite number, or a string holding one.
    public var doubleValue: Double? {
        switch self {
        case .number(let literal): Double(literal).flatMap { $0.isFinite ? $0 : nil }
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// `true` for a number no Swift number holds as written: outside `Double`'s range
    /// (`1e999`), or an integer literal beyond 64 bits (`123456789012345678901234567890`).
    public var isOutOfRange: Bool {
        guard case .number(let literal) = self else { return false }
        guard let value = Double(literal), value.isFinite else { return true }
        let integral = !literal.contains { $0 == "." || $0 == "e" || $0 == "E" }
        return integral && Int(literal) == nil
    }

    /// The JSON type's name, for error messages: `a string`, `an object`, …
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A new object with `key` set to `value` (replacing it in place, or appended); other
    /// values are returned unchanged.
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.lastIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }

    /// A number literal's value as `Int` when it is whole and exact.
    static func integer(literal: String) -> Int? {
        if let value = Int(literal) { return value }
        guard let value = Double(literal), value.isFinite, value.rounded(.towardZero) == value,
              abs(value) < 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }
}

extension JSONValue: JSONTreeValue {
    /// `.null`.
    public static func jsonNull() -> JSONValue { .null }
    /// `.bool(value)`.
    public static func jsonBool(_ value: Bool) -> JSONValue { .bool(value) }
    /// `.string(value)`; the parser has already unescaped it.
    public static func jsonString(_ value: String) -> JSONValue { .string(value) }
    /// `.array(elements)`.
    public static func jsonArray(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    /// `.object(members)`: document order and repeated keys kept.
    public static func jsonObject(_ members: [(key: String, value: JSONValue)]) -> JSONValue { .object(members) }

    /// The literal as written, also one outside `Double`'s range (`1e999`): one such
    /// number in a page is the problem of the field that holds it, not of the whole page.
    public static func jsonNumber(literal: String, integral: Bool) -> JSONValue? {
        .number(literal)
    }
}
