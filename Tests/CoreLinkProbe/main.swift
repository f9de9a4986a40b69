// postfeed-core-probe: the smallest program a service would write on `PostFeed` alone.
// It depends on the `PostFeed` product only; `CoreLinkageTests` runs `ldd` on it (no
// terminal, image-decoding or Redis library may be linked) and runs it on a cache root
// (no `ThumbnailCache/` folder may appear).
//
//   postfeed-core-probe <cache-root>    opens an offline client there, prints "ok", shuts down
//
// Exit status 0 on success, 2 on bad arguments, 1 when the client cannot be built.
import Foundation
import PostFeed

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: postfeed-core-probe <cache-root>\n".utf8))
    exit(2)
}
guard let baseURL = URL(string: "http://127.0.0.1:9") else { exit(2) }
do {
    let backend = try BackendDescription.preset("postfeed", baseURL: baseURL)
    let configuration = FeedClient.Configuration(
        backend: backend, cacheLocation: CacheLocation(root: URL(fileURLWithPath: arguments[0], isDirectory: true)),
        offline: true)
    try await FeedClient.withFeedClient(configuration) { client in
        print("ok \(client.cacheLocation.root.path)")
    }
} catch {
    FileHandle.standardError.write(Data("postfeed-core-probe: \(error)\n".utf8))
    exit(1)
}
