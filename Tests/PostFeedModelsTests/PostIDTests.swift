import Foundation
import PostFeedModels
import Testing

/// Issue 32, item 1: a post id is an opaque string; numbers and strings both arrive.
@Suite("Post ids")
struct PostIDTests {
    @Test("a JSON number is the id of its digits, of any length; a JSON string is the id as it is")
    func fromJSON() throws {
        let cases: [(String, String)] = [
            ("7", "7"), ("-3", "-3"), ("109876543210987654321", "109876543210987654321"),
            (#""t3_1abc""#, "t3_1abc"), (#""109876543210987654321""#, "109876543210987654321"),
            (#""https://example.com/posts/1""#, "https://example.com/posts/1"), (#""7""#, "7"),
        ]
        for (json, text) in cases {
            let id = try PostID(json: JSONValue.parse(Data(json.utf8)))
            #expect(id.text == text, "\(json)")
        }
        #expect(try PostID(json: .number("7")) == PostID(json: .string("7")), "1 and \"1\" are one id")
    }

    @Test("a fraction, an exponent, an empty or control-laden string, a long id or another type is no id, said why")
    func refused() throws {
        let cases: [(JSONValue, String)] = [
            (.number("1.5"), "is 1.5, expected a string or a whole number (no fraction or exponent)"),
            (.number("1e3"), "is 1e3, expected a string or a whole number (no fraction or exponent)"),
            (.string(""), #"is "", which is empty (expected a post id)"#),
            (.string("a\u{1B}[2J"), #"is "a\u{1B}[2J", which holds a control character (expected a post id)"#),
            (.string("a\u{85}b"), #"is "a\u{85}b", which holds a control character (expected a post id)"#),
            (.bool(true), "is a boolean, expected a string or a whole number"),
            (.null, "is null, expected a string or a whole number"),
        ]
        for (value, message) in cases {
            let problem = #expect(throws: PostID.JSONProblem.self) { try PostID(json: value) }
            #expect(problem?.message == message, "\(value)")
        }
        let long = String(repeating: "x", count: PostID.maximumLength + 1)
        #expect(PostID(long) == nil)
        #expect(PostID(String(repeating: "x", count: PostID.maximumLength)) != nil)
    }

    @Test("only canonical decimal integers that fit Int have an integer value")
    func integerValue() {
        #expect(PostID(42).integerValue == 42)
        #expect(PostID("0").integerValue == 0)
        #expect(PostID("-7").integerValue == -7)
        #expect(PostID(Int.min).integerValue == Int.min)
        for text in ["042", "-0", "-", "+1", "1e3", " 1", "t3_1", "9223372036854775808", "109876543210987654321"] {
            #expect(PostID(text)?.integerValue == nil, "\(text)")
        }
        #expect(PostID("9223372036854775807").integerValue == Int.max)
    }

    @Test("the wire form writes integer ids as numbers and others as strings; both decode")
    func codable() throws {
        let posts = [Post(id: 1, title: "a", body: ""), Post(id: "t3_1abc", title: "b", body: "")]
        let data = try JSONEncoder().encode(posts)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""id":1"#) && text.contains(#""id":"t3_1abc""#), "\(text)")
        #expect(try JSONDecoder().decode([Post].self, from: data) == posts)
    }

    @Test("a file-name-safe form keeps plain ids and escapes the rest; no slash, no dot-dot, bounded")
    func fileNameSafe() {
        #expect(PostID(42).fileNameSafe() == "42")
        #expect(PostID("t3_1abc").fileNameSafe() == "t3_1abc")
        #expect(PostID("tag:x/1").fileNameSafe() == "tag%3Ax%2F1")
        #expect(PostID("..").fileNameSafe() == "%2E.")
        #expect(PostID("../etc/passwd").fileNameSafe() == "%2E.%2Fetc%2Fpasswd")
        let long = PostID(String(repeating: "a", count: 1000) + "/x")!
        let other = PostID(String(repeating: "a", count: 1000) + "/y")!
        #expect(long.fileNameSafe().utf8.count <= 100)
        #expect(long.fileNameSafe() != other.fileNameSafe(), "ids sharing a prefix stay apart")
        #expect(!long.fileNameSafe().contains("/"))
    }

    @Test("messages show integer ids bare and other ids quoted")
    func shown() {
        #expect(PostID(42).shown == "42")
        #expect(PostID("t3_1abc").shown == #""t3_1abc""#)
        #expect(PostID(#"a"b"#).shown == #""a\"b""#)
    }
}
