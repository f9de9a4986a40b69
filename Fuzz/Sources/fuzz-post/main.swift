import Foundation
import FuzzSupport
@testable import PostFeed
import PostFeedModels

// PostDecoder.decode with every preset's field mapping: the input is JSON, one item or
// an array of them.
private let baseURL = URL(string: "http://127.0.0.1:8080/base/")!
private let decoders: [PostDecoder] = BackendPreset.allCases.map { preset in
    // The post decoder the page decoder makes for the preset, as the product does.
    PageDecoder(backend: try! BackendDescription.preset(preset.rawValue, baseURL: baseURL), pageSize: 20).posts
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPost(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let json = try? JSONValue.parse(fuzzInput(start, count)) else { return 0 }
    let items = json.arrayValue ?? [json]
    for decoder in decoders {
        for item in items {
            guard let post = try? decoder.decode(item) else { continue }
            _ = post.imageURL.map { URL(string: $0) }
        }
    }
    return 0
}
