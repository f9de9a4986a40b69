import FuzzSupport
import PostFeedModels

// JSONValue.parse: every page body, state file and backend config goes through it.
// Whatever parses must serialize to JSON that parses again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let value = try? JSONValue.parse(fuzzInput(start, count)) else { return 0 }
    let text = value.serialized()
    guard (try? JSONValue.parse(Array(text.utf8))) != nil else {
        fatalError("serialized JSON does not parse again: \(text)")
    }
    _ = value.serialized(pretty: true)
    return 0
}
