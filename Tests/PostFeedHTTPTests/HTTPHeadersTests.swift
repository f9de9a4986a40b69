import Testing

@testable import PostFeedHTTP

@Suite struct HTTPHeadersTests {
    @Test func namesMatchWhateverTheCaseOfTheirLetters() {
        let headers: HTTPHeaders = ["Content-Type": "image/png", "ETag": "\"v1\""]

        #expect(headers["content-type"] == "image/png")
        #expect(headers["CONTENT-TYPE"] == "image/png")
        #expect(headers["etag"] == "\"v1\"")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Types"] == nil)
    }

    @Test func onlyLettersFoldTheirCase() {
        // '@' and '`', '[' and '{' differ by the same bit as 'A' and 'a', but are not letters.
        let headers: HTTPHeaders = ["X-@": "at", "X-[": "bracket", "X-Café": "accent"]

        #expect(headers["x-@"] == "at")
        #expect(headers["X-`"] == nil)
        #expect(headers["X-{"] == nil)
        #expect(headers["x-café"] == "accent")
        #expect(headers["X-CAFÉ"] == nil)  // only ASCII letters fold
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers = HTTPHeaders()
        headers.add(name: "Link", value: "<a>")
        headers.add(name: "link", value: "<b>")
        #expect(headers.values(for: "LINK") == ["<a>", "<b>"])

        headers["LINK"] = "<c>"

        #expect(headers.values(for: "link") == ["<c>"])
        headers["Link"] = nil
        #expect(headers.isEmpty)
    }

    // MARK: Headers as received

    /// Fields as the engine stores them: bytes, no Strings until read.
    private func wire(_ lines: [(name: [UInt8], value: [UInt8])]) -> HTTPHeaders {
        var wire = WireHeaderFields()
        for line in lines {
            line.name.withUnsafeBytes { name in line.value.withUnsafeBytes { wire.append(name: name, value: $0) } }
        }
        return HTTPHeaders(wire: wire)
    }

    @Test func receivedFieldsReadLikeBuiltOnes() {
        let received = wire([
            (Array("Content-Type".utf8), Array("image/png".utf8)),
            (Array("Link".utf8), Array("<a>".utf8)),
            (Array("link".utf8), Array("<b>".utf8)),
            (Array("X-Unicode".utf8), Array("café ☕".utf8)),
        ])
        let built: HTTPHeaders = ["Content-Type": "image/png", "Link": "<a>", "link": "<b>", "X-Unicode": "café ☕"]

        #expect(received["content-type"] == "image/png")
        #expect(received["LINK"] == "<a>")
        #expect(received.values(for: "Link") == ["<a>", "<b>"])
        #expect(received["X-Unicode"] == "café ☕")
        #expect(received["Missing"] == nil)
        #expect(received.fields == built.fields)
        #expect(received == built)
        #expect(received.hashValue == built.hashValue)
        #expect(!received.isEmpty)
        #expect(HTTPHeaders(wire: WireHeaderFields()).isEmpty)
    }

    @Test func aValueThatIsNotUTF8IsReadAsLatin1() {
        // 0xE9 alone is "é" in ISO-8859-1 and invalid UTF-8
        let received = wire([(Array("X-Name".utf8), [0x52, 0xE9, 0x6E])])

        #expect(received["X-Name"] == "Rén")
    }

    @Test func changingReceivedFieldsKeepsTheOthers() {
        var received = wire([(Array("ETag".utf8), Array("\"v1\"".utf8)), (Array("Age".utf8), Array("3".utf8))])

        received["etag"] = "\"v2\""
        received.add(name: "Vary", value: "Accept")

        #expect(received.fields.map(\.name) == ["Age", "etag", "Vary"])
        #expect(received["ETag"] == "\"v2\"")
        #expect(received["age"] == "3")
    }

    @Test func headerLinesGiveRangesAndTheContentLength() throws {
        let line = Array("Content-Length:  1234 \r\n".utf8)
        let parsed = line.withUnsafeBytes { bytes -> (String, Int?)? in
            guard case .field(let name, let value, let isContentLength) = HeaderLine(bytes), isContentLength else {
                return nil
            }
            return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[name]), as: UTF8.self),
                HeaderLine.integer(bytes, value))
        }
        let (name, length) = try #require(parsed)
        #expect(name == "Content-Length")
        #expect(length == 1234)

        let status = Array("HTTP/1.1 304 Not Modified\r\n".utf8).withUnsafeBytes { HeaderLine($0) }
        #expect(status == .status(304))
        let notANumber = Array("12a".utf8).withUnsafeBytes { HeaderLine.integer($0, 0..<3) }
        #expect(notANumber == nil)
    }
}
