import Foundation

/// The few JavaScript conversions the emulated Node backends apply to query strings, so that
/// odd inputs (`_page=2abc`, `limit=`, `_limit=-5`) behave exactly as they do there.
enum JavaScript {
    /// `parseInt(text, 10)`: optional leading whitespace and sign, then the longest run of
    /// decimal digits; `nil` (NaN) when there are none.
    static func parseInt(_ text: String?) -> Int? {
        guard let text else { return nil }
        var rest = Substring(text).drop { $0.isWhitespace }
        var sign = 1
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        // Beyond Int's range JavaScript keeps a float; clamping is close enough for slicing.
        return (Int(digits) ?? Int.max) * sign
    }

    /// `Number(text)`: whitespace-trimmed decimal, `0x`/`0o`/`0b` integers, `Infinity`;
    /// the empty string is 0; anything else is `nil` (NaN).
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        let lower = trimmed.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            return Int(lower.dropFirst(2), radix: radix).map(Double.init)
        }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let allowed = Set("0123456789.eE+-")
        guard trimmed.allSatisfy({ allowed.contains($0) }) else { return nil }
        return Double(trimmed)
    }

    /// `Array.prototype.slice(start, end)`: negative positions count from the end, both are
    /// clamped to the array; `nil` stands for `undefined` (start → 0, end → count).
    static func slice<T>(_ array: [T], _ start: Int?, _ end: Int?) -> [T] {
        let count = array.count
        func resolve(_ position: Int) -> Int {
            position < 0 ? max(0, count + position) : min(position, count)
        }
        let from = resolve(start ?? 0)
        let to = resolve(end ?? count)
        return from < to ? Array(array[from..<to]) : []
    }
}
