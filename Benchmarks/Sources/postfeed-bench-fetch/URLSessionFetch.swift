import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's URLSession (swift-corelibs-foundation, itself over libcurl), no cache.
enum URLSessionFetch {
    static func run(urls: [String], concurrency: Int) async -> Tally {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = concurrency
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        let urls = urls.compactMap(URL.init(string:))
        let tally = await fetchWindowed(count: urls.count, concurrency: concurrency) { index in
            guard let (data, response) = try? await session.data(from: urls[index]),
                (response as? HTTPURLResponse)?.statusCode == 200
            else { return nil }
            return data.count
        }
        session.finishTasksAndInvalidate()
        return tally
    }
}
