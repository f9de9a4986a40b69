import Foundation
import FuzzSupport
@testable import PostFeed

// A list state file as restore reads it: StateFileCheck (ListState(jsonData:) and the
// messages for what is wrong), for both modes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(fuzzInput(start, count))
    for mode in ListMode.allCases {
        switch StateFileCheck.check(data, mode: mode, backendIdentity: "postfeed built-in fixture backend") {
        case .success(let state): _ = try? state.jsonData()
        case .failure(let problem): _ = problem.description
        }
    }
    return 0
}
