/// One line from curl's header callback, parsed on its bytes.
///
/// HTTP framing is ASCII, so bytes suffice; Foundation's `trimmingCharacters(in:)` bridges
/// through `NSString` and took a third of the engine's CPU time when fetching many small
/// files (see `Benchmarks/`).
enum HeaderLine: Equatable {
    /// `HTTP/1.1 200 OK`: a new response starts (after a redirect or `100 Continue`).
    /// `0` when the status code cannot be read.
    case status(Int)
    /// `Name: value`, both trimmed of spaces and tabs.
    case field(name: String, value: String, isContentLength: Bool)
    /// The blank line that ends the headers, or a line with no colon.
    case other

    init(_ bytes: UnsafeRawBufferPointer) {
        let line = Self.trimmed(bytes, 0..<bytes.count)
        guard !line.isEmpty else {
            self = .other
            return
        }
        if Self.starts(bytes, line, with: "HTTP/") {
            self = .status(Self.statusCode(bytes, line))
            return
        }
        guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }) else {
            self = .other
            return
        }
        let name = Self.trimmed(bytes, line.lowerBound..<colon)
        let value = Self.trimmed(bytes, (colon + 1)..<line.upperBound)
        self = .field(
            name: Self.text(bytes, name), value: Self.text(bytes, value),
            isContentLength: Self.equalsIgnoringASCIICase(bytes, name, "content-length"))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return (0..<count).allSatisfy { bytes[range.lowerBound + $0] == prefix.utf8Start[$0] }
    }

    /// The second word of the status line, when it is all digits.
    private static func statusCode(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> Int {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] != UInt8(ascii: " ") { index += 1 }
        while index < line.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
        var code = 0
        var digits = 0
        while index < line.upperBound, bytes[index] != UInt8(ascii: " ") {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return 0 }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? code : 0
    }

    private static func equalsIgnoringASCIICase(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString
    ) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        return (0..<range.count).allSatisfy { offset in
            var byte = bytes[range.lowerBound + offset]
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 0x20 }
            return byte == lowercase.utf8Start[offset]
        }
    }

    /// UTF-8 when valid (nearly always plain ASCII), else ISO-8859-1, as HTTP/1.1 used to allow.
    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range]).assumingMemoryBound(to: UInt8.self)
        if slice.allSatisfy({ $0 < 0x80 }) || String(validating: slice, as: UTF8.self) != nil {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
    }
}
