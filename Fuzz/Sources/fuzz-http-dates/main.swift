import Foundation
import FuzzSupport
@testable import PostFeed
import PostFeedHTTP

// HTTP dates and what is computed from them: the input is response header lines
// (`Retry-After`, `Date`, `Expires`, `Cache-Control`, `Age`…): through the engine's
// HTTPFreshness and the page cache's CacheFreshness, `Retry-After` through RetryPolicy,
// each value through the page cache's HTTP-date parser.
private let now = Date(timeIntervalSince1970: 1_760_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDates(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let headers = wireHeaders(input).headers
    _ = HTTPFreshness(headers: headers, now: now)
    _ = CacheFreshness.of(headers, now: now)
    // As the client reads them: Retry-After through RetryPolicy (DateFormatter-based,
    // slow, so only that header), every value through the page cache's IMF-fixdate parser.
    _ = RetryPolicy.retryAfter(headers["Retry-After"], now: now)
    for field in headers.fields.prefix(8) { _ = PostFeed.HTTPDate.parse(field.value) }
    if headers.isEmpty, input.count < 200 {
        let text = String(decoding: input, as: UTF8.self)
        _ = RetryPolicy.retryAfter(text, now: now)
        _ = PostFeed.HTTPDate.parse(text)
    }
    return 0
}
