import Foundation

/// Why a body is not JSON: what was found, and where (line and column, 1-based).
public struct JSONParseError: Error, CustomStringConvertible, Equatable {
    /// What was found and what was expected.
    public let message: String
    /// 1-based line of the problem.
    public let line: Int
    /// 1-based column (byte) of the problem.
    public let column: Int
    /// 0-based byte offset of the problem from the first byte of the input (a byte order
    /// mark included): the byte the message is about.
    public let offset: Int

    /// `<message> at line L, column C`.
    public var description: String { "\(message) at line \(line), column \(column)" }
}

/// A JSON tree ``JSONParser`` can build, such as ``JSONValue``.
public protocol JSONTreeValue {
    /// `null`.
    static func jsonNull() -> Self
    /// `true` or `false`.
    static func jsonBool(_ value: Bool) -> Self
    /// A number, given as its literal (already checked against the grammar); `integral`
    /// when it has no fraction and no exponent. `nil` when the value cannot be held.
    static func jsonNumber(literal: String, integral: Bool) -> Self?
    /// A string, unescaped.
    static func jsonString(_ value: String) -> Self
    /// An array's elements, in order.
    static func jsonArray(_ elements: [Self]) -> Self
    /// Members in document order; a key may repeat.
    static func jsonObject(_ members: [(key: String, value: Self)]) -> Self
}

/// Parses RFC 8259 JSON straight into a tree of `Value`s.
///
/// Why not `JSONDecoder().decode(JSONValue.self, …)`: that went through `Decodable` for every
/// value, trying one JSON kind after another (each miss builds a `DecodingError`), and in a
/// fresh process every generic container type it touched cost a runtime type lookup. Pages
/// are decoded on every list run, cold or warm: a restore decodes four.
///
/// Strings must be valid UTF-8 and may not hold raw control characters; a `\u` escape
/// of a lone surrogate becomes U+FFFD; a leading UTF-8 byte order mark is skipped;
/// nesting is limited to 512 levels. Errors say what was found and where.
public struct JSONParser<Value: JSONTreeValue> {
    static var maximumDepth: Int { 512 }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    /// Parses one JSON document (RFC 8259) from `bytes`.
    /// - Throws: ``JSONParseError`` naming what is wrong and where.
    public static func parse(_ bytes: some ContiguousBytes) throws(JSONParseError) -> Value {
        let result = bytes.withUnsafeBytes { buffer -> Result<Value, JSONParseError> in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(JSONParseError) -> Value in try parser.parseDocument() }
        }
        return try result.get()
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func parseDocument() throws(JSONParseError) -> Value {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(found()) after the value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> Value {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .jsonString(try parseString())
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "t"): try expectWord("true"); return .jsonBool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .jsonBool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .jsonNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(found()), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> Value {
        try enterContainer()
        index += 1  // {
        var members: [(key: String, value: Value)] = []
        skipWhitespace()
        if leaveContainer(at: UInt8(ascii: "}")) { return .jsonObject(members) }
        repeat {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("unexpected \(found()), expected a key in quotes") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(found()), expected ':' after a key") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
        } while try nextElement(before: "}", in: "an object")
        return .jsonObject(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> Value {
        try enterContainer()
        index += 1  // [
        var elements: [Value] = []
        skipWhitespace()
        if leaveContainer(at: UInt8(ascii: "]")) { return .jsonArray(elements) }
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try nextElement(before: "]", in: "an array")
        return .jsonArray(elements)
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    /// Steps over `close` and leaves the container when it is next; `false` otherwise.
    private mutating func leaveContainer(at close: UInt8) -> Bool {
        guard peek(close) else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After an element: `true` past a `,` (another element follows), `false` past the
    /// container's `close` (it is left), and an error naming both for anything else.
    private mutating func nextElement(before close: Unicode.Scalar, in container: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
            index += 1
            return true
        }
        if leaveContainer(at: UInt8(ascii: close)) { return false }
        throw error("unexpected \(found()), expected ',' or '\(close)' in \(container)")
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(start..<index)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a raw control character (0x\(String(byte, radix: 16))) in a string; it must be escaped") }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: firstInvalidUTF8(in: start..<index))
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                try appendEscape(to: &utf8)
            case 0..<0x20:
                throw error("a raw control character (0x\(String(byte, radix: 16))) in a string; it must be escaped")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw error("unexpected end of input in a string", at: start - 1)
    }

    private func makeString(_ range: Range<Int>) throws(JSONParseError) -> String {
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw error("a string is not valid UTF-8", at: firstInvalidUTF8(in: range))
        }
        return text
    }

    /// Where the first byte that is not UTF-8 is in `range` (of a string's raw bytes, whose
    /// escapes are ASCII), so the error points at it rather than at the string's start.
    private func firstInvalidUTF8(in range: Range<Int>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = UnsafeRawBufferPointer(rebasing: bytes[range]).makeIterator()
        var offset = range.lowerBound
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return range.lowerBound
            }
        }
    }

    /// Reads one escape sequence (at a backslash) and appends its UTF-8 bytes.
    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONParseError) {
        index += 1  // backslash
        guard index < bytes.count else { throw error("unexpected end of input in an escape") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(letter)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let value = try scalar(forEscaped: try readHexQuad())
            // Never nil: a lone surrogate became U+FFFD, a pair one scalar past U+FFFF.
            let unicode = Unicode.Scalar(value) ?? "\u{FFFD}"
            UTF8.encode(unicode) { utf8.append($0) }
        default:
            throw error("an unknown escape \\\(Character(Unicode.Scalar(letter)))", at: index - 2)
        }
    }

    /// The scalar a `\u` escape of `unit` stands for. A high surrogate followed by an
    /// escaped low one is a pair (the low one is read here); a lone surrogate, high or low,
    /// is U+FFFD, and an escape after a lone high one is left to be read next. JavaScript
    /// and Python accept such strings (the grammar allows them); a Swift `String` cannot
    /// hold the lone half, and failing the whole page for one character would be worse.
    private mutating func scalar(forEscaped unit: UInt32) throws(JSONParseError) -> UInt32 {
        switch unit {
        case 0xD800..<0xDC00:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                return 0xFFFD
            }
            let next = index
            index += 2
            let low = try readHexQuad()
            guard (0xDC00..<0xE000).contains(low) else {
                index = next
                return 0xFFFD
            }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00..<0xE000:
            return 0xFFFD
        default:
            return unit
        }
    }

    private mutating func readHexQuad() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("unexpected \(found()) in a \\u escape, expected a hex digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers and words

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() throws(JSONParseError) -> Value {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("unexpected \(found()), expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number with a leading zero", at: start) }
        } else {
            skipDigits()
        }
        var integral = true
        if peek(UInt8(ascii: ".")) {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("unexpected \(found()), expected a digit after '.'") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            integral = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("unexpected \(found()), expected an exponent") }
            skipDigits()
        }
        // The literal is ASCII by construction.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Value.jsonNumber(literal: text, integral: integral) else {
            // A server's literal may be thousands of digits long: its ends are enough.
            let shown = text.utf8.count > 40 ? "\(text.prefix(24))…\(text.suffix(8))" : text
            throw error("the number \(shown) is out of range", at: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[start + $0] == word.utf8Start[$0] })
        else { throw error("unexpected \(found()), expected a value") }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    // MARK: Errors

    /// The byte at the current position, for messages: `'x'`, `byte 0xff` or `end of input`.
    private func found() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<position where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return JSONParseError(message: message, line: line, column: position - lineStart + 1, offset: position)
    }
}
