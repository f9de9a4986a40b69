import Foundation
import FuzzSupport
@testable import PostFeedHTTP

// HTTP dates and what is computed from them: the input is response header lines
// (`Retry-After`, `Date`, `Expires`, `Cache-Control`, `Age`, `Last-Modified`…) through
// HTTPFreshness, the one freshness policy of pages and images; `Retry-After` through
// RetryPolicy; each value through HTTPDate (its formatter-free fixdate reading first).
private let now = Date(timeIntervalSince1970: 1_760_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPDates(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let headers = wireHeaders(input).headers
    _ = HTTPFreshness(headers: headers, now: now)
    _ = RetryPolicy.retryAfter(headers["Retry-After"], now: now)
    for field in headers.fields.prefix(8) { _ = HTTPDate.parseFixdate(field.value) }
    if headers.isEmpty, input.count < 200 {
        let text = String(decoding: input, as: UTF8.self)
        _ = RetryPolicy.retryAfter(text, now: now)
        _ = HTTPDate.parseFixdate(text)
    }
    return 0
}
