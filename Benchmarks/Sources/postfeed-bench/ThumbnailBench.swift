import ArgumentParser
import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedImaging
import PostFeedPreview

extension PostFeedBench {
    /// `postfeed-bench thumbnail`: one post's image preview through `FeedClient.preview(for:fittingIn:style:)`,
    /// in one process: the first call (the image fetched, decoded, rendered and stored as a
    /// thumbnail), then `--runs` more on the warm thumbnail cache (no decode, checked),
    /// printed as one Markdown table row in ms (scripts/bench-images.sh puts it beside chafa).
    struct ThumbnailBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "thumbnail",
            abstract: "Time a post's preview cold, then from the warm thumbnail cache, in one process; print a Markdown row.",
            discussion: """
                Example (against 'postfeed serve --port 6969'):
                  postfeed-bench thumbnail --base-url http://127.0.0.1:6969 --post 1 --format symbols --label img-001.jpg
                """)

        @Option(name: .customLong("base-url"), help: "A backend with PostFeed's API (postfeed serve).")
        var baseURL: String

        @Option(help: "The post whose image is previewed.")
        var post: Int

        @Option(help: "The box in cells, COLUMNSxROWS.")
        var size: String = "40x20"

        @Option(help: "symbols or kitty (true colour, chafa's standard symbols: chafa's --colors full).")
        var format: String = "symbols"

        @Option(help: "Warm previews timed after the first.")
        var runs: Int = 20

        @Option(help: "The first column of the row.")
        var label: String = ""

        func validate() throws {
            guard runs >= 1 else { throw ValidationError("--runs must be at least 1.") }
            guard cells != nil else { throw ValidationError("--size '\(size)' is not COLUMNSxROWS with positive numbers.") }
            guard imageProtocol != nil else { throw ValidationError("--format must be symbols or kitty.") }
            guard URL(string: baseURL)?.host != nil else { throw ValidationError("--base-url '\(baseURL)' is not a URL.") }
        }

        private var imageProtocol: ImageProtocol? {
            format == "symbols" || format == "kitty" ? ImageProtocol(rawValue: format) : nil
        }

        private var cells: PixelSize? {
            let parts = size.split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
            return PixelSize(width: width, height: height)
        }

        func run() async throws {
            guard let cells, let imageProtocol, let url = URL(string: baseURL) else {
                throw ValidationError("bad --size, --format or --base-url")
            }
            let scratch = try ScratchDirectory("thumbnail")
            defer { scratch.remove() }
            let backend = try BackendDescription.preset("postfeed", baseURL: url)
            var configuration = FeedClient.Configuration(
                backend: backend, pageSize: 20, cacheLocation: CacheLocation(root: scratch.url))
            configuration.http.retryPolicy = .never
            configuration.plugins.append(ImagePreviews())
            let style = PreviewStyle(imageProtocol: imageProtocol, colors: .trueColor)
            let postID = post
            let runs = runs
            let row = try await FeedClient.withFeedClient(configuration) { client in
                let post = try await client.repository.post(id: PostID(postID), cachePolicy: .useCache)
                let clock = ContinuousClock()
                let coldStart = clock.now
                guard let first = try await client.preview(for: post, fittingIn: cells, style: style) else {
                    throw BenchError("post \(postID) at \(baseURL) has no image to preview")
                }
                let cold = (clock.now - coldStart).seconds
                var warm: [Double] = []
                for _ in 0..<runs {
                    let start = clock.now
                    let preview = try await client.preview(for: post, fittingIn: cells, style: style)
                    warm.append((clock.now - start).seconds)
                    guard preview?.source == .thumbnail, preview?.text == first.text else {
                        throw BenchError("post \(postID): a warm preview was not the stored thumbnail")
                    }
                }
                let decodes = client.previews?.decodeCount ?? 0
                guard decodes == 1 else {
                    throw BenchError("post \(postID): \(decodes) decodes, expected 1 (the first preview only)")
                }
                let samples = BenchSamples(warm)
                let times = String(
                    format: "%.2f | %.3f / %.3f / %.3f", cold * 1000, samples.minimum * 1000, samples.median * 1000,
                    samples.maximum * 1000)
                return "| \(label) | \(imageProtocol.rawValue) | \(times) | \(first.text.utf8.count) | \(decodes) |"
            }
            print(row)
        }
    }
}
