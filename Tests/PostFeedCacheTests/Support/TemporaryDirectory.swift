import Foundation

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = #function) throws {
        let name = "postfeed-cache-tests-" + label.filter { $0.isLetter || $0.isNumber } + "-" + UUID().uuidString
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func appending(_ component: String) -> URL {
        url.appendingPathComponent(component)
    }
}
