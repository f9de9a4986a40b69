/// Equality by value: numbers by their numeric value, objects as maps (the last of a
/// repeated key counts, member order does not). The hash agrees with it.
extension JSONValue: Hashable {
    /// Equal by value: `1.0 == 1`, and `{"a":1,"b":2} == {"b":2,"a":1}`. Numbers compare
    /// as `Int` when both literals fit one, else as `Double`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)):
            if a == b { return true }
            if let x = Int(a), let y = Int(b) { return x == y }
            // Numbers outside Double's range (`1e999`) are equal only as written.
            guard let x = Double(a), let y = Double(b), x.isFinite, y.isFinite else { return false }
            return x == y
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            let (left, right) = (Self.map(a), Self.map(b))
            return left.count == right.count && left.allSatisfy { right[$0.key] == $0.value }
        default: return false
        }
    }

    /// Numbers hash as `Double`, objects order-independently (last value per key), so values
    /// that compare equal hash equally.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let literal): hasher.combine(Double(literal) ?? 0)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            // Order-independent: the sum of the members' hashes.
            var sum = 0
            for (key, value) in Self.map(members) {
                var member = Hasher()
                member.combine(key)
                member.combine(value)
                sum &+= member.finalize()
            }
            hasher.combine(sum)
        }
    }

    /// Members as a map; a repeated key keeps its last value.
    private static func map(_ members: [(key: String, value: JSONValue)]) -> [String: JSONValue] {
        Dictionary(members, uniquingKeysWith: { _, last in last })
    }
}
