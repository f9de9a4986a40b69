/// One line from curl's header callback, parsed on its bytes: where the name and value
/// are, not Strings of them (``WireHeaderFields`` keeps the bytes).
///
/// HTTP framing is ASCII, so bytes suffice; Foundation's `trimmingCharacters(in:)` bridges
/// through `NSString` and took a third of the engine's CPU time when fetching many small
/// files (see `Benchmarks/`).
enum HeaderLine: Equatable {
    /// `HTTP/1.1 200 OK`: a new response starts (after a redirect or `100 Continue`).
    /// `0` when the status code cannot be read.
    case status(Int)
    /// `Name: value`: the byte ranges of both, trimmed of spaces and tabs.
    case field(name: Range<Int>, value: Range<Int>, isContentLength: Bool)
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
            name: name, value: value,
            isContentLength: equalIgnoringASCIICase(UnsafeRawBufferPointer(rebasing: bytes[name]), "content-length".utf8))
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

    /// The second word of the status line, when it is all digits (at most 9).
    private static func statusCode(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> Int {
        var start = line.lowerBound
        while start < line.upperBound, bytes[start] != UInt8(ascii: " ") { start += 1 }
        while start < line.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
        var end = start
        while end < line.upperBound, bytes[end] != UInt8(ascii: " ") { end += 1 }
        guard end - start <= 9 else { return 0 }
        return integer(bytes, start..<end) ?? 0
    }

    /// The decimal number `range` holds, when it is only digits (a `Content-Length`).
    static func integer(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
