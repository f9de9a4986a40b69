import Foundation
import FuzzSupport
import PostFeedHTTP

// Response header lines as curl hands them over, one by one, into HTTPHeaders; then the
// lookups the client makes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaderLines(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let (headers, _, _) = wireHeaders(fuzzInput(start, count))
    for field in headers { _ = headers.values(for: field.name) }
    for name in ["Content-Type", "ETag", "Link", "content-length", "X-Total-Count"] { _ = headers[name] }
    var copy = headers
    copy.add(name: "X-Fuzz", value: "1")
    _ = copy == headers
    _ = copy.fields.count
    return 0
}
