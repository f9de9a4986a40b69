/// A JSON value that keeps object keys in document order and numbers as written.
///
/// The emulated backends send their datasets back as they are on disk (same fields, same
/// order, same number spelling), which `JSONSerialization` and `Codable` cannot promise.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text, e.g. `42`, `-0.5`, `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member named `key` of an object, or `nil`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The elements of an array, or `nil`.
    var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// A number as an integer, or a string holding an integer.
    var intValue: Int? {
        switch self {
        case .number(let text): return Int(text)
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    /// A new object with `key` set to `value` (replacing it in place, or appended).
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }
}
