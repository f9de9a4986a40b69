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
        (#""\ud83d alone""#, #"a \u escape holds half a surrogate pair at line 1, column 2"#),
        ("<html>", "unexpected '<', expected a value at line 1, column 1"),
        ("1e999", "the number 1e999 is out of range at line 1, column 1"),
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
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.message == "nested deeper than 512 levels")
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(allowed) }
    }
}
