import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser<JSONValue>.parse(Data(text.utf8))
    }

    private func failure(_ text: String) -> JSONParseError? {
        #expect(throws: JSONParseError.self) { try JSONParser<JSONValue>.parse(Data(text.utf8)) }
    }

    @Test("the real datasets parse to what JSONDecoder made of them", arguments: [
        "jsonplaceholder/data.json", "dummyjson/posts.json", "dummyjson/comments.json", "dummyjson/users.json",
    ])
    func sameAsDecodable(file: String) throws {
        let data = try Data(contentsOf: FixtureLocator.peerDataDirectory().appending(path: file))
        let parsed = try JSONParser<JSONValue>.parse(data)
        #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: data)))
    }

    @Test("the fixture posts parse to what JSONDecoder made of them")
    func fixtures() throws {
        let data = try Data(contentsOf: FixtureLocator.fixturesDirectory().appending(path: "posts.json"))
        let parsed = try JSONParser<JSONValue>.parse(data)
        #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: data)))
        guard case .array(let posts) = parsed else { Issue.record("posts.json is not an array"); return }
        #expect(posts.count > 100)
    }

    @Test("every kind of value")
    func kinds() throws {
        let value = try parse(#" { "a": [1, -2, 0, 3.5, -0.25, 1e3, 2E-2, true, false, null, "x"], "b": {}, "c": [] } "#)
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .integer(0), .double(3.5), .double(-0.25), .integer(1000), .double(0.02),
                         .bool(true), .bool(false), .null, .string("x")]),
            "b": .object([:]), "c": .array([]),
        ]))
        // Scalars at the top level, a byte order mark, a repeated key keeps the last value
        #expect(try parse("42") == .integer(42))
        #expect(try parse("[1.0, -2.0, 0.0]") == .array([.integer(1), .integer(-2), .integer(0)]))
        #expect(try parse("\u{FEFF}\"bom\"") == .string("bom"))
        #expect(try parse(#"{"k": 1, "k": 2}"#) == .object(["k": .integer(2)]))
        // Integers beyond Int become doubles instead of failing
        #expect(try parse("9223372036854775807") == .integer(Int.max))
        #expect(try parse("92233720368547758070") == .double(92233720368547758070))
    }

    @Test("escapes, surrogate pairs and UTF-8 in strings")
    func strings() throws {
        #expect(try parse(#""quote \" backslash \\ slash \/ \b\f\n\r\t""#) == .string("quote \" backslash \\ slash / \u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u4e2d\ud83d\ude00""#) == .string("é中😀"))
        #expect(try parse("\"é中😀 as is\"") == .string("é中😀 as is"))
        #expect(try parse(#""mixed é \n then more é""#) == .string("mixed é \n then more é"))
    }

    @Test("a lone surrogate escape becomes U+FFFD, as JavaScript and Python take it, instead of failing the body")
    func loneSurrogates() throws {
        #expect(try parse(#""lone \ud800 surrogate""#) == .string("lone \u{FFFD} surrogate"))
        #expect(try parse(#""\ud83d alone""#) == .string("\u{FFFD} alone"))
        #expect(try parse(#""\udc00""#) == .string("\u{FFFD}"))
        #expect(try parse(#""end \ud800""#) == .string("end \u{FFFD}"))
        // A high surrogate followed by an escape that is not a low one: both are kept
        #expect(try parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try parse(#""\ud800\n""#) == .string("\u{FFFD}\n"))
        // Two highs, then a low: the second pair is whole
        #expect(try parse(#""\ud800\ud83d\ude00""#) == .string("\u{FFFD}😀"))
        #expect(try parse(#""\ude00\ud83d""#) == .string("\u{FFFD}\u{FFFD}"))
        // Whatever the pair, the escape itself must still be four hex digits
        #expect(failure(#""\ud800\uZZZZ""#)?.message == "unexpected 'Z' in a \\u escape, expected a hex digit")
        // The page the tester's server sent: one title with a lone surrogate, the rest intact
        let page = try parse(#"[{"id": 4, "title": "lone \ud800 surrogate"}, {"id": 5, "title": "ok"}]"#)
        #expect(page == .array([
            .object(["id": .integer(4), "title": .string("lone \u{FFFD} surrogate")]),
            .object(["id": .integer(5), "title": .string("ok")]),
        ]))
    }

    @Test("errors carry the byte offset of the problem, counted from the first byte")
    func offsets() {
        #expect(failure("[1, 2,]")?.offset == 6)
        let multiline = failure("{\n  \"a\": 1,\n  \"b\": 2,\n}")
        #expect(multiline?.line == 4)
        #expect(multiline?.column == 1)
        #expect(multiline?.offset == 22)
        #expect(failure("")?.offset == 0)
        // Invalid UTF-8 in a string is placed at its first bad byte, not at the string's start
        let latin1 = #expect(throws: JSONParseError.self) {
            try JSONParser<JSONValue>.parse(Data([0x5B, 0x22, 0x43, 0x61, 0x66, 0xE9, 0x22, 0x5D]))  // ["Caf\xe9"]
        }
        #expect(latin1?.message == "a string is not valid UTF-8")
        #expect(latin1?.offset == 5)
        #expect(latin1?.column == 6)
        let afterEscape = #expect(throws: JSONParseError.self) {
            try JSONParser<JSONValue>.parse(Data([0x22, 0x5C, 0x6E, 0x61, 0xC3, 0x22]))  // "\na\xc3"
        }
        #expect(afterEscape?.offset == 4)
    }

    @Test("malformed input fails saying what and where", arguments: [
        ("", "unexpected end of input, expected a value at line 1, column 1"),
        ("{\"a\": 1,\n  \"b\" 2}", "unexpected '2', expected ':' after a key at line 2, column 7"),
        ("[1, 2", "unexpected end of input, expected ',' or ']' in an array at line 1, column 6"),
        ("[1] x", "unexpected 'x' after the value at line 1, column 5"),
        ("{a: 1}", "unexpected 'a', expected a key in quotes at line 1, column 2"),
        ("01", "a number with a leading zero at line 1, column 1"),
        ("1.", "unexpected end of input, expected a digit after '.' at line 1, column 3"),
        ("tru", "unexpected 't', expected a value at line 1, column 1"),
        ("\"open", "unexpected end of input in a string at line 1, column 1"),
        ("\"tab\there\"", "a raw control character (0x9) in a string; it must be escaped at line 1, column 5"),
        (#""\x""#, #"an unknown escape \x at line 1, column 2"#),
        ("<html>", "unexpected '<', expected a value at line 1, column 1"),
    ])
    func malformed(text: String, message: String) {
        #expect(failure(text)?.description == message)
    }

    @Test("invalid UTF-8 and runaway nesting are errors, not crashes")
    func hostile() throws {
        let invalid = #expect(throws: JSONParseError.self) { try JSONParser<JSONValue>.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
        #expect(invalid?.message == "a string is not valid UTF-8")
        let escapedThenInvalid = #expect(throws: JSONParseError.self) {
            try JSONParser<JSONValue>.parse(Data([0x22, 0x5C, 0x6E, 0xC3, 0x22]))
        }
        #expect(escapedThenInvalid?.message == "a string is not valid UTF-8")
        let longLiteral = "[" + String(repeating: "9", count: 5000) + "e999]"
        let long = #expect(throws: JSONParseError.self) { try JSONParser<FiniteNumbers>.parse(Data(longLiteral.utf8)) }
        #expect(long?.message == "the number 999999999999999999999999…9999e999 is out of range", "no 5000 digits in a message")
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.message == "nested deeper than 512 levels")
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(allowed) }
    }

    /// Issue 29, item 9: one `"popularity": 1e999` failed the whole page. A number no
    /// `Double` holds is valid JSON: the tree keeps it as written, and the field that reads
    /// it finds no finite value (that field's problem, not the document's).
    @Test("a number outside Double's range parses, kept as written, with no Double or Int value")
    func numberOutsideDoubleRange() throws {
        let value = try parse(#"{"popularity": 1e999, "low": -1e999, "fine": 2}"#)
        #expect(value["popularity"] == .number("1e999"))
        #expect(value["popularity"]?.doubleValue == nil)
        #expect(value["popularity"]?.integerValue == nil)
        #expect(value["low"]?.doubleValue == nil)
        #expect(value["fine"]?.integerValue == 2)
        #expect(value.serialized() == #"{"popularity":1e999,"low":-1e999,"fine":2}"#)
    }
}

/// A tree that refuses numbers no `Double` holds, as `JSONValue` did: for the parser's
/// out-of-range message.
private struct FiniteNumbers: JSONTreeValue {
    static func jsonNull() -> FiniteNumbers { FiniteNumbers() }
    static func jsonBool(_ value: Bool) -> FiniteNumbers { FiniteNumbers() }
    static func jsonNumber(literal: String, integral: Bool) -> FiniteNumbers? {
        Double(literal).map(\.isFinite) == true ? FiniteNumbers() : nil
    }
    static func jsonString(_ value: String) -> FiniteNumbers { FiniteNumbers() }
    static func jsonArray(_ elements: [FiniteNumbers]) -> FiniteNumbers { FiniteNumbers() }
    static func jsonObject(_ members: [(key: String, value: FiniteNumbers)]) -> FiniteNumbers { FiniteNumbers() }
}
