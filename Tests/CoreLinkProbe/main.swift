// postfeed-core-probe: the smallest program a service would write on `PostFeed` alone.
// It depends on the `PostFeed` product only; `CoreLinkageTests` runs `ldd` on it (no
// terminal, image-decoding or Redis library may be linked) and runs it on a cache root
// (no `ThumbnailCache/` folder may appear). Being top-level code, it also proves that the
// page walk and `readPages` compile and run outside any actor, and that `import PostFeed`
// alone reaches the HTTP and cache settings.
//
//   postfeed-core-probe <cache-root>              opens an offline client there, prints "ok …"
//   postfeed-core-probe <cache-root> <base-url>   walks every page of the backend and reads
//                                                 the first two with readPages; prints
//                                                 "pages P posts N handed 1,2"
//
// Exit status 0 on success, 2 on bad arguments, 1 when the client or a call failed.
import Foundation
import PostFeed

let arguments = Array(CommandLine.arguments.dropFirst())
guard (1...2).contains(arguments.count) else {
    FileHandle.standardError.write(Data("usage: postfeed-core-probe <cache-root> [<base-url>]\n".utf8))
    exit(2)
}
guard let baseURL = URL(string: arguments.count == 2 ? arguments[1] : "http://127.0.0.1:9") else { exit(2) }
do {
    let backend = try BackendDescription.preset("postfeed", baseURL: baseURL)
    var configuration = FeedClient.Configuration(
        backend: backend, pageSize: 10, cacheLocation: CacheLocation(root: URL(fileURLWithPath: arguments[0], isDirectory: true)),
        offline: arguments.count == 1)
    // The HTTP and cache settings, through `import PostFeed` alone.
    configuration.http.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(10))
    configuration.http.retryPolicy = .never
    configuration.imageCache = DiskCache.Configuration(sizeLimit: 16 << 20)
    configuration.images.memoryCountLimit = 50
    configuration.unusableCacheRoot = .fail
    let client = try FeedClient(configuration)
    if arguments.count == 1 {
        print("ok \(client.cacheLocation.root.path)")
    } else {
        var pages = 0
        var posts = 0
        for try await page in client.pages(deadline: .now + .seconds(60)) {
            pages += 1
            posts += page.posts.count
        }
        // A closure that mutates top-level state: not `@Sendable`.
        var handed: [Int] = []
        try await client.readPages(.first, count: 2) { reading in handed.append(reading.page) }
        print("pages \(pages) posts \(posts) handed \(handed.map(String.init).joined(separator: ","))")
    }
    await client.shutdown()
} catch {
    FileHandle.standardError.write(Data("postfeed-core-probe: \(error)\n".utf8))
    exit(1)
}
