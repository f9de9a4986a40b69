import Foundation

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
struct ScratchDirectory {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-bench-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                                    isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func appending(_ component: String, isDirectory: Bool = true) -> URL {
        url.appendingPathComponent(component, isDirectory: isDirectory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
