import Foundation
import FuzzSupport
import PostFeedFormats

// FeedParser.parse: every RSS, Atom and JSON Feed body goes through it (libxml2 with its
// entity refusal and limits, or JSONValue), then each item's body through HTMLText.
// Whatever parses must give items with an id, one-line titles and clean text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(fuzzInput(start, count))
    let base = URL(string: "https://fuzz.example/feed/")
    let document: FeedDocument
    do {
        document = try FeedParser.parse(data, contentType: nil, baseURL: base)
    } catch {
        // Not a feed by its body: read it as each XML format anyway, for coverage.
        _ = try? FeedParser.parse(data, as: .rss, baseURL: base)
        _ = try? FeedParser.parse(data, as: .atom, baseURL: base)
        return 0
    }
    for item in document.items {
        if item.id.isEmpty { fatalError("an item without an id") }
        if let title = item.title, title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            fatalError("a title with a control character: \(title.debugDescription)")
        }
        for url in [item.link, item.imageURL].compactMap({ $0 }) where url.scheme != "http" && url.scheme != "https" {
            fatalError("a URL that is not http(s): \(url)")
        }
        let text = item.renderedBody().text
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x1B }) {
            fatalError("rendered text with a control character: \(text.debugDescription)")
        }
    }
    return 0
}
