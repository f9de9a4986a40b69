import Foundation
import PostFeedModels
import Testing

@testable import PostFeedServer

@Suite("Building blocks")
struct InternalsTests {
    @Test("the JSON parser keeps key order, number spelling and escapes")
    func jsonRoundTrip() throws {
        let text = #"{"b":1,"a":[true,false,null,-0.5e3,"x\"\\\/\n\u00e9\ud83d\ude00"],"c":{}}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value.serialized() == #"{"b":1,"a":[true,false,null,-0.5e3,"x\"\\/\né😀"],"c":{}}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(value.serialized(pretty: true).contains("\n  \"a\": [\n    true,"))
    }

    @Test("the JSON parser rejects malformed input", arguments: ["", "{", "[1,]", "{\"a\" 1}", "01x", "\"\\q\"", "[1] 2", "tru"])
    func jsonRejects(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test("HTTP dates: IMF-fixdate round trip, and the obsolete forms parse")
    func httpDates() throws {
        let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == date)
        #expect(HTTPDate.parse("yesterday") == nil)
    }

    @Test("If-None-Match parsing: lists, weak tags, star, junk")
    func ifNoneMatch() {
        let tag = EntityTag(opaque: "abc")
        func matches(_ value: String) -> Bool {
            ConditionalRequest.isNotModified(ifNoneMatch: [value], ifModifiedSince: nil, etag: tag, lastModified: nil)
        }
        #expect(matches("\"abc\""))
        #expect(matches("W/\"abc\""))
        #expect(matches("\"x\" , W/\"y\",\"abc\""))
        #expect(matches("*"))
        #expect(!matches("\"abcd\""))
        #expect(!matches("\"ab"))
        #expect(!ConditionalRequest.isNotModified(ifNoneMatch: [], ifModifiedSince: nil, etag: tag, lastModified: nil))
    }

    @Test("cursors round-trip and only the canonical spelling decodes")
    func cursors() {
        for offset in [0, 1, 20, 246, 1_000_000] {
            #expect(PageCursor.decode(PageCursor.encode(offset: offset)) == offset)
        }
        #expect(PageCursor.encode(offset: 10) == "bzoxMA")
        #expect(PageCursor.decode("bzoxMA==") == nil)
        #expect(PageCursor.decode("bzotMQ") == nil)  // "o:-1"
        #expect(PageCursor.decode("") == nil)
    }

    @Test("CRC-32 matches the standard check value, and gzip framing is well formed")
    func gzip() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let empty = Gzip.encode([])
        #expect(empty.count == 10 + 5 + 8)
        let big = Gzip.encode([UInt8](repeating: 7, count: 70_000))
        #expect(big.count == 10 + (5 + 65_535) + (5 + 4_465) + 8)
    }

    @Test("JavaScript conversions behave like Node's")
    func javaScript() {
        #expect(JavaScript.parseInt("2abc") == 2)
        #expect(JavaScript.parseInt("  -7") == -7)
        #expect(JavaScript.parseInt("abc") == nil)
        #expect(JavaScript.parseInt("") == nil)
        #expect(JavaScript.number("") == 0)
        #expect(JavaScript.number("0x10") == 16)
        #expect(JavaScript.number("1e2") == 100)
        #expect(JavaScript.number("12px") == nil)
        #expect(JavaScript.slice([1, 2, 3, 4], -2, nil) == [3, 4])
        #expect(JavaScript.slice([1, 2, 3, 4], 1, 99) == [2, 3, 4])
        #expect(JavaScript.slice([1, 2, 3, 4], 3, 1) == [])
    }

    @Test("json-server 0.17's getPage: no links past the end, none when one page holds all")
    func getPage() {
        let items = (1...5).map { JSONValue.number(String($0)) }
        let past = JSONServer017Routes.getPage(items, page: 3, perPage: 5)
        #expect(past.items.isEmpty && past.first == nil && past.next == nil)
        let all = JSONServer017Routes.getPage(items, page: 1, perPage: 10)
        #expect(all.items.count == 5 && all.first == nil && all.last == nil)
        let second = JSONServer017Routes.getPage(items, page: 2, perPage: 2)
        #expect(second.prev == 1 && second.next == 3 && second.last == 3 && second.current == 2)
    }

    @Test("the fault planner's bands and failFirst are deterministic")
    func planner() {
        let planner = FaultPlanner(plan: FaultInjection(failFirst: 1, failFirstFault: .connectionReset))
        #expect(planner.decide(path: "/a").fault == .connectionReset)
        #expect(planner.decide(path: "/a").fault == nil)
        let shares = FaultPlanner(plan: FaultInjection(truncationShare: 1))
        #expect(shares.decide(path: "/x").fault == .truncatedBody)
        let none = FaultPlanner(plan: .none)
        #expect(none.decide(path: "/x") == FaultPlanner.Decision())
    }
}
