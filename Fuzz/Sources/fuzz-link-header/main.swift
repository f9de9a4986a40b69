import Foundation
import FuzzSupport
import PostFeed

// The `Link` header of a page response (RFC 8288): one value per line, as the header
// lines arrive, resolved against the page's URL.
private let base = URL(string: "http://127.0.0.1:8080/api/posts?page=2&limit=20")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: fuzzInput(start, count), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = LinkHeader(parsing: values, relativeTo: base)
    for relation in ["next", "prev", "last", "first"] { _ = header.url(forRelation: relation) }
    _ = LinkHeader(parsing: text, relativeTo: nil)
    return 0
}
