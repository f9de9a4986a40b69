import Foundation
import FuzzSupport
@testable import PostFeed
import PostFeedModels

// PageDecoder.decode under every preset. Input: one byte choosing the page key, then
// response header lines, a blank line, the body (no blank line: all body, no headers).
private let baseURL = URL(string: "http://127.0.0.1:8080")!
private let decoders: [PageDecoder] = BackendPreset.allCases.map { preset in
    PageDecoder(backend: try! BackendDescription.preset(preset.rawValue, baseURL: baseURL), pageSize: 20)
}
private let keys: [PageKey] = [
    .number(1), .number(2), .number(Int.max), .offset(0), .offset(40), .cursor(nil), .cursor("c2"),
    .link(nil), .link(URL(string: "http://127.0.0.1:8080/posts?_page=3")!),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    guard let first = input.first else { return 0 }
    let key = keys[Int(first) % keys.count]
    let (headerBytes, body) = splitHeadersAndBody(UnsafeRawBufferPointer(rebasing: input.dropFirst()))
    let headers = wireHeaders(headerBytes).headers
    let url = URL(string: "http://127.0.0.1:8080/api/posts?page=2")!
    for decoder in decoders {
        guard let page = try? decoder.decode(body: body, headers: headers, url: url, key: key, startIndex: 20) else { continue }
        _ = page.nextKey?.description
    }
    return 0
}
