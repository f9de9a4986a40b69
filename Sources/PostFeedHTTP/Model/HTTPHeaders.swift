/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["If-None-Match"] = "\"abc\""
/// headers["accept"]   // "application/json"
/// ```
///
/// A response's headers stay as the bytes that came off the wire until they are read:
/// a lookup compares bytes and makes a `String` of the value it returns, and ``fields``
/// makes all of them. Most responses are read for two or three fields, or none.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as it appeared on the wire.
    public struct Field: Sendable, Hashable {
        /// The field's name, in the case it was written or received. ``HTTPHeaders`` lookups
        /// ignore ASCII case; comparing two fields does not.
        public var name: String
        /// The field's value; a received one is trimmed of the spaces and tabs around it.
        public var value: String
        /// A field exactly as given, not validated here: ``HTTPClient`` fails a request with
        /// `.invalidURL` when a name holds `:` or a line break, or a value a line break.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private enum Storage: Sendable {
        case fields([Field])
        case wire(WireHeaderFields)
    }

    private var storage: Storage

    /// Headers holding `fields` in their order, repeated names kept. Empty by default.
    public init(_ fields: [Field] = []) {
        storage = .fields(fields)
    }

    /// Headers from a literal, in the order written: `["Accept": "application/json"]`.
    /// A name written twice gives two fields.
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = .fields(elements.map { Field(name: $0.0, value: $0.1) })
    }

    /// A response's fields as received (see ``WireHeaderFields``).
    init(wire: WireHeaderFields) {
        storage = .wire(wire)
    }

    /// Every field, in order.
    public var fields: [Field] {
        switch storage {
        case .fields(let fields): fields
        case .wire(let wire): wire.fields
        }
    }

    /// The first value for `name` (case-insensitive); setting replaces every field of that
    /// name, `nil` removes them.
    public subscript(name: String) -> String? {
        get { values(for: name, firstOnly: true).first }
        set {
            modifyFields { fields in
                fields.removeAll { equalIgnoringASCIICase($0.name.utf8, name.utf8) }
                if let newValue { fields.append(Field(name: name, value: newValue)) }
            }
        }
    }

    /// Every value for `name`, in order (e.g. several `Link` or `Set-Cookie` fields).
    public func values(for name: String) -> [String] {
        values(for: name, firstOnly: false)
    }

    /// The values of the fields called `name` (ASCII case ignored), or only the first.
    private func values(for name: String, firstOnly: Bool) -> [String] {
        switch storage {
        case .fields(let fields):
            let values = fields.lazy.filter { equalIgnoringASCIICase($0.name.utf8, name.utf8) }.map(\.value)
            return firstOnly ? Array(values.prefix(1)) : Array(values)
        case .wire(let wire):
            return wire.values(for: name, firstOnly: firstOnly)
        }
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        modifyFields { $0.append(Field(name: name, value: value)) }
    }

    /// `true` when there is no field; cheaper than `fields.isEmpty` for a response's headers.
    public var isEmpty: Bool {
        switch storage {
        case .fields(let fields): fields.isEmpty
        case .wire(let wire): wire.isEmpty
        }
    }

    /// Iterates over ``fields`` in order: `for field in headers { … }`. Like ``fields``, it
    /// makes a `String` of every name and value first.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Equal when both hold the same fields in the same order, names compared case-sensitively
    /// (`Accept` and `accept` differ here, though lookups treat them alike).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    /// Hashes ``fields`` in order, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// Mutates the fields as an array, which stays uniquely referenced while it changes.
    private mutating func modifyFields(_ body: (inout [Field]) -> Void) {
        var fields = self.fields
        storage = .fields([])
        body(&fields)
        storage = .fields(fields)
    }
}

/// A response's header fields as received: every name and value's bytes back to back in
/// one array, and where each field's name and value are. The engine appends to it for
/// each header line without making a `String`; ``HTTPHeaders`` makes Strings only of what
/// is read.
struct WireHeaderFields: Sendable {
    private struct Span: Sendable {
        var nameStart: Int
        /// Also where the value starts.
        var nameEnd: Int
        var valueEnd: Int
    }

    private var bytes: [UInt8] = []
    private var spans: [Span] = []

    init() {}

    var isEmpty: Bool { spans.isEmpty }

    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        if spans.isEmpty {
            bytes.reserveCapacity(512)
            spans.reserveCapacity(16)
        }
        let nameStart = bytes.count
        bytes.append(contentsOf: name)
        let nameEnd = bytes.count
        bytes.append(contentsOf: value)
        spans.append(Span(nameStart: nameStart, nameEnd: nameEnd, valueEnd: bytes.count))
    }

    var fields: [HTTPHeaders.Field] {
        bytes.withUnsafeBufferPointer { buffer in
            spans.map { span in
                HTTPHeaders.Field(
                    name: HeaderText.decode(buffer, span.nameStart..<span.nameEnd),
                    value: HeaderText.decode(buffer, span.nameEnd..<span.valueEnd))
            }
        }
    }

    /// The values of the fields called `name` (ASCII case ignored), or only the first.
    func values(for name: String, firstOnly: Bool) -> [String] {
        bytes.withUnsafeBufferPointer { buffer in
            var values: [String] = []
            for span in spans
            where equalIgnoringASCIICase(UnsafeBufferPointer(rebasing: buffer[span.nameStart..<span.nameEnd]), name.utf8) {
                values.append(HeaderText.decode(buffer, span.nameEnd..<span.valueEnd))
                if firstOnly { break }
            }
            return values
        }
    }
}

/// Header text from its bytes: UTF-8 when valid (nearly always plain ASCII), else
/// ISO-8859-1, as HTTP/1.1 used to allow.
enum HeaderText {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if slice.allSatisfy({ $0 < 0x80 }) || String(validating: slice, as: UTF8.self) != nil {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
    }
}

/// Equal but for the case of ASCII letters, as header names compare (RFC 9110 §5.1).
/// Byte by byte: `lowercased()` would allocate two strings per comparison.
func equalIgnoringASCIICase(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { a, b in
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
    }
}
