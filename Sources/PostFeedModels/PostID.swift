/// A post's identifier: an opaque string, unique within one backend.
///
/// Backends send ids as JSON numbers (`1`, `109876543210987654321`) or strings (`"t3_1abc"`,
/// a URI, a hex hash); both become a `PostID` holding the text as written, so `1` and
/// `"1"` are the same id. Ids are compared for equality only: they have no order (a
/// backend's order is its list's order), and no arithmetic.
///
/// A valid id is non-empty, at most ``maximumLength`` bytes of UTF-8 and free of control
/// characters (a terminal escape in an id must not reach the screen or a file name).
///
/// ```swift
/// let post = Post(id: 1, title: "…", body: "…")          // the literal 1 is the id "1"
/// let reddit: PostID = "t3_1abc"
/// PostID(json: .number("109876543210987654321"))         // the id "109876543210987654321"
/// ```
///
/// Where a compact form helps (the state file's runs, the infinite feed's packed ids),
/// ``integerValue`` gives the number of an id that is a canonical decimal integer.
public struct PostID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
{
    /// The id as the backend wrote it (a number's digits as written).
    public let text: String

    /// The longest id accepted, in bytes of UTF-8.
    public static let maximumLength = 1024

    /// `text` as an id, or `nil` when it is not a valid one (see ``problem(with:)``).
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        self.text = text
    }

    /// The id of a whole number, in its decimal form (`7` is the id `"7"`).
    public init(_ number: Int) {
        self.text = String(number)
    }

    /// `let id: PostID = "t3_1abc"`; the literal must be a valid id.
    public init(stringLiteral value: String) {
        precondition(Self.problem(with: value) == nil, "invalid post id literal \(value.debugDescription)")
        self.text = value
    }

    /// `let id: PostID = 7` is the id `"7"`.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// The id's text.
    public var description: String { text }

    /// The id as messages show it: an integer id as it is (`post 42`), any other in
    /// quotes (`post "t3_1abc"`), a `"` or `\` in it escaped, so where it starts and ends
    /// is plain.
    public var shown: String {
        if integerValue != nil { return text }
        var escaped = "\""
        for character in text {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "\""
    }

    /// What makes `text` no id, in words for a message (`is empty`, `is longer than 1024
    /// bytes`, `holds a control character`), or `nil` when it is a valid id.
    public static func problem(with text: String) -> String? {
        var count = 0
        for unit in text.utf8 {
            count += 1
            // C0 controls and DEL; C1 controls (U+0080…U+009F) are 0xC2 0x80…0x9F in UTF-8.
            if unit < 0x20 || unit == 0x7F { return "holds a control character" }
        }
        if count == 0 { return "is empty" }
        if count > maximumLength { return "is longer than \(maximumLength) bytes" }
        if text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) {
            return "holds a control character"
        }
        return nil
    }

    /// The id's number when its text is a canonical decimal integer that fits `Int`: what
    /// `String(n)` writes, so every `Int` has one such text and back (`"0"`, `"42"`,
    /// `"-7"`; not `"042"`, `"-0"`, `"+1"`, `"1e3"`, `"109876543210987654321"`). Such ids
    /// may be stored compactly (runs, ranges, deltas); every other id is kept as text.
    public var integerValue: Int? {
        Self.canonicalInteger(text)
    }

    /// The number of `text` when it is a canonical decimal integer that fits `Int`.
    public static func canonicalInteger(_ text: String) -> Int? {
        var utf8 = text.utf8.makeIterator()
        guard var first = utf8.next() else { return nil }
        let negative = first == 0x2D
        if negative {
            guard let digit = utf8.next() else { return nil }
            first = digit
        }
        // No leading zero, and no "-0".
        guard (0x30...0x39).contains(first), !(negative && first == 0x30) else { return nil }
        // Accumulated negative, so Int.min fits.
        var value = -Int(first - 0x30)
        while let unit = utf8.next() {
            guard (0x30...0x39).contains(unit), value != 0 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.subtractingReportingOverflow(Int(unit - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }

    /// A form of the id safe as (part of) a file name: letters, digits, `-`, `_` and `.`
    /// are kept, any other byte becomes `%XX`; a leading `.` is escaped (no `.` or `..`,
    /// no hidden file), and a long id is cut to its first `maximumBytes` bytes plus a
    /// short hash of the whole, so two long ids sharing a prefix stay apart.
    public func fileNameSafe(maximumBytes: Int = 100) -> String {
        var safe = ""
        for (offset, unit) in text.utf8.enumerated() {
            let isPlain = (0x30...0x39).contains(unit) || (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit)
                || unit == 0x2D || unit == 0x5F || (unit == 0x2E && offset > 0)
            if isPlain {
                safe.unicodeScalars.append(Unicode.Scalar(unit))
            } else {
                safe += "%" + String(unit >> 4, radix: 16, uppercase: true) + String(unit & 0xF, radix: 16, uppercase: true)
            }
        }
        guard safe.utf8.count > maximumBytes else { return safe }
        // FNV-1a over the id's bytes: stable across runs and builds (unlike `hashValue`).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for unit in text.utf8 {
            hash ^= UInt64(unit)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(safe.utf8.prefix(max(maximumBytes - 17, 1)))! + "~" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

// MARK: - JSON

extension PostID {
    /// What a JSON value is wrong as an id, for ``init(json:)``.
    public struct JSONProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// E.g. `is 1.5, expected a string or a whole number`, `is an empty string`.
        public let message: String
        public var description: String { message }
    }

    /// The id of a JSON value: a number's literal text when it is an integer (`42`,
    /// `109876543210987654321`; a fraction or exponent is refused), or a string that is a
    /// valid id.
    public init(json value: JSONValue) throws(JSONProblem) {
        switch value {
        case .number(let literal):
            guard Self.isIntegerLiteral(literal) else {
                let shown = literal.utf8.count > 40 ? "\(literal.prefix(24))…\(literal.suffix(8))" : literal
                throw JSONProblem(message: "is \(shown), expected a string or a whole number (no fraction or exponent)")
            }
            guard literal.utf8.count <= Self.maximumLength else {
                throw JSONProblem(message: "is a number of \(literal.utf8.count) digits, longer than \(Self.maximumLength)")
            }
            self.text = literal
        case .string(let text):
            if let problem = Self.problem(with: text) {
                let shown = Self.escaped(text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text)
                throw JSONProblem(message: "is \"\(shown)\", which \(problem) (expected a post id)")
            }
            self.text = text
        default:
            throw JSONProblem(message: "is \(value.typeDescription), expected a string or a whole number")
        }
    }

    /// `text` with its control characters (C0, DEL, C1) as `\u{1B}`, so a message that
    /// quotes a refused id sends none to a terminal.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `true` for a JSON integer literal: `-?(0|[1-9][0-9]*)`.
    static func isIntegerLiteral(_ literal: String) -> Bool {
        var digits = Substring(literal).utf8[...]
        if digits.first == 0x2D { digits = digits.dropFirst() }
        guard let first = digits.first, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        return first != 0x30 || digits.count == 1
    }

    /// The id as JSON: a number when ``integerValue`` has one (the fixture backend's
    /// integer ids stay numbers on the wire), else a string.
    public var jsonValue: JSONValue {
        integerValue != nil ? .number(text) : .string(text)
    }
}

// MARK: - Codable

extension PostID: Codable {
    /// Decodes a string that is a valid id, or a whole number (`Int` or `UInt64`; a number
    /// beyond those is only read through ``init(json:)``, which keeps its digits).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            if let problem = Self.problem(with: text) {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "the post id \(text.debugDescription) \(problem)")
            }
            self.text = text
        } else if let number = try? container.decode(Int.self) {
            self.text = String(number)
        } else if let number = try? container.decode(UInt64.self) {
            self.text = String(number)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a post id: a string or a whole number")
        }
    }

    /// Encodes a number when ``integerValue`` has one, a string otherwise: the wire form
    /// (`{"id":1,…}`). State files write ids as strings by their own coding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let number = integerValue {
            try container.encode(number)
        } else {
            try container.encode(text)
        }
    }
}
