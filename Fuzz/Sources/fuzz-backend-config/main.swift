import Foundation
import FuzzSupport
import PostFeed

// A backend description file (`--backend-file`), then a base URL override as the CLI
// passes it.
private let override = URL(string: "http://127.0.0.1:9000/v2")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackendConfig(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(fuzzInput(start, count))
    let file = URL(fileURLWithPath: "/tmp/backend.json")
    if let backend = try? BackendDescription(configuration: data, file: file) {
        _ = backend.identity
    } else {
        _ = (try? BackendDescription(configuration: data)).map { _ in () }
    }
    _ = try? BackendDescription(configuration: data, file: file, baseURL: override)
    return 0
}
