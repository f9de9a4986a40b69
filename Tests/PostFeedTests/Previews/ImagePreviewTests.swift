import Foundation
import PostFeedPreview
import PostFeed
import PostFeedCache
import PostFeedImaging
import PostFeedServer
import Testing

@Suite("Image previews through the thumbnail cache")
struct ImagePreviewTests {
    static let box = PixelSize(width: 40, height: 20)
    static let symbols = PreviewStyle(imageProtocol: .symbols, colors: .indexed256)

    @Test("a second preview reads the thumbnail and decodes nothing, also in a new client")
    func secondPreviewDecodesNothing() async throws {
        try await FeedTestSupport.withClient { client, server, root in
            // Given: post 42's image previewed once
            let post = try await client.repository.post(id: 42, cachePolicy: .useCache)
            let first = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))
            #expect(first.source == .rendered)
            #expect(try client.previewer.decodeCount == 1)
            #expect(first.cells.width <= 40 && first.cells.height <= 20 && first.cells.height > 0)
            #expect(!first.text.isEmpty)

            // When: the same preview again
            let second = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))

            // Then: from the thumbnail, the same output, no decode
            #expect(second.source == .thumbnail)
            #expect(second == ImagePreview(text: first.text, cells: first.cells, imageProtocol: .symbols, source: .thumbnail))
            #expect(try client.previewer.decodeCount == 1)
            #expect(client.storedPreview(for: post, fittingIn: Self.box, style: Self.symbols)?.text == first.text)

            // And a new client on the same cache root decodes nothing either
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            try await FeedClient.withFeedClient(configuration) { other in
                let third = try #require(try await other.preview(for: post, fittingIn: Self.box, style: Self.symbols))
                #expect(third.source == .thumbnail && third.text == first.text)
                #expect(try other.previewer.decodeCount == 0)
            }

            // But another size or another protocol is a thumbnail of its own
            let smaller = try #require(try await client.preview(for: post, fittingIn: PixelSize(width: 8, height: 4), style: Self.symbols))
            #expect(smaller.source == .rendered && smaller.cells.width <= 8)
            let kitty = try #require(try await client.preview(for: post, fittingIn: Self.box, style: PreviewStyle(imageProtocol: .kitty)))
            #expect(kitty.source == .rendered && kitty.text.hasPrefix("\u{1B}_G"))
            #expect(try client.previewer.decodeCount == 3)
            #expect(try client.thumbnails.statistics().entryCount == 3)
        }
    }

    @Test("a new original (new ETag) gets a new thumbnail; removing orphans deletes the old one")
    func newETagMakesOldThumbnailsUnreachable() async throws {
        let fixtures = try FixtureCopy()
        let root = FeedTestSupport.temporaryDirectory("previews")
        defer { try? FileManager.default.removeItem(at: root) }
        // Given: post 42 (img-060.png) previewed
        let (firstText, port) = try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            try await FeedClient.withFeedClient(try FeedTestSupport.configuration(server: server, cacheRoot: root)) { client in
                let post = try await client.repository.post(id: 42, cachePolicy: .useCache)
                let preview = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))
                #expect(preview.source == .rendered)
                return (preview.text, server.port)
            }
        }
        // When: the server's image changes (new bytes, new ETag) and it is previewed again
        try fixtures.replace("img-060.png", withImage: "img-003.png")
        try await RunningFixtureServer.withRunning(fixtures.configuration(port: port), waitingForPort: .seconds(15)) { server in
            try await FeedClient.withFeedClient(try FeedTestSupport.configuration(server: server, cacheRoot: root)) { client in
                let post = try await client.repository.post(id: 42, cachePolicy: .useCache)
                let second = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))

                // Then: drawn anew from the new original, the old thumbnail still on disk
                #expect(second.source == .rendered)
                #expect(second.text != firstText)
                #expect(try client.previewer.decodeCount == 1)
                #expect(try client.thumbnails.statistics().entryCount == 2)

                // When: orphans are removed; Then: only the old one goes
                let thumbnails = ThumbnailCache(disk: try client.thumbnails, originals: client.imageCache)
                #expect(thumbnails.removeOrphans().entriesRemoved == 1)
                #expect(try client.thumbnails.statistics().entryCount == 1)
                let third = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))
                #expect(third.source == .thumbnail && third.text == second.text)
                #expect(try client.previewer.decodeCount == 1)
            }
        }
    }

    @Test("a thumbnail whose image left the image cache is an orphan")
    func originalGoneIsOrphan() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let post = try await client.repository.post(id: 1, cachePolicy: .useCache)
            _ = try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols)
            let thumbnails = ThumbnailCache(disk: try client.thumbnails, originals: client.imageCache)
            #expect(thumbnails.removeOrphans().entriesRemoved == 0)
            try client.imageCache.removeAll()
            #expect(thumbnails.removeOrphans().entriesRemoved == 1)
            #expect(try client.thumbnails.statistics().entryCount == 0)
        }
    }

    @Test("a thumbnail an older render drew is never read again, and removing orphans deletes it")
    func olderRenderIsOrphan() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            // Given: post 1 previewed, and the same thumbnail as an older PostFeed stored it
            // (no render version in its key or its attributes)
            let post = try await client.repository.post(id: 1, cachePolicy: .useCache)
            let drawn = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))
            var stored: [CacheEntryMetadata] = []
            _ = try client.thumbnails.removeEntries { stored.append($0); return false }
            var old = try #require(stored.first)
            #expect(old.attributes["render"] == ThumbnailCache.renderVersion)
            #expect(old.key.hasPrefix("thumbnail r\(ThumbnailCache.renderVersion) "))
            old.key = old.key.replacingOccurrences(of: "thumbnail r\(ThumbnailCache.renderVersion) ", with: "thumbnail ")
            old.attributes["render"] = nil
            try client.thumbnails.store(Data("old render".utf8), metadata: old, forKey: old.key)

            // When: previewed again; Then: the current render's thumbnail, not the old one
            let again = try #require(try await client.preview(for: post, fittingIn: Self.box, style: Self.symbols))
            #expect(again.source == .thumbnail && again.text == drawn.text)

            // When: orphans are removed; Then: only the old render goes
            let thumbnails = ThumbnailCache(disk: try client.thumbnails, originals: client.imageCache)
            #expect(thumbnails.removeOrphans().entriesRemoved == 1)
            #expect(try client.thumbnails.entry(forKey: old.key) == nil)
            #expect(try client.thumbnails.statistics().entryCount == 1)
        }
    }

    @Test("a cancelled preview throws .cancelled and decodes nothing")
    func cancellation() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let post = try await client.repository.post(id: 42, cachePolicy: .useCache)
            let image = try #require(await client.image(for: post)?.response)
            let previews = try client.previewer
            let outcome = await Task { () -> ImagePreviewError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(ImagePreviewError) {
                    _ = try await previews.preview(of: image, fittingIn: Self.box, style: Self.symbols)
                    return nil
                } catch {
                    return error
                }
            }.value
            #expect(outcome?.isCancelled == true)
            #expect(previews.decodeCount == 0)
            #expect(try client.thumbnails.statistics().entryCount == 0)
        }
    }

    @Test("the none style draws nothing and reads nothing")
    func noneDrawsNothing() async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let post = try await client.repository.post(id: 42, cachePolicy: .useCache)
            let requests = server.requestCount(pathPrefix: "/images/")
            #expect(try await client.preview(for: post, fittingIn: Self.box, style: .none) == nil)
            #expect(server.requestCount(pathPrefix: "/images/") == requests)
            #expect(try client.previewer.decodeCount == 0)
        }
    }
}

@Suite("PreviewStyle: which protocol for which output")
struct PreviewStyleTests {
    @Test("auto: nothing into a pipe or on TERM=dumb; the terminal's protocol otherwise; a name always wins")
    func resolution() {
        let kittyTerminal = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: kittyTerminal, isTerminal: false).imageProtocol == .none)
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "dumb"], isTerminal: true).imageProtocol == .none)
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: [:], isTerminal: true).imageProtocol == .none)
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: kittyTerminal, isTerminal: true).imageProtocol == .kitty)
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "xterm", "TERM_PROGRAM": "iTerm.app"], isTerminal: true).imageProtocol == .iterm)
        #expect(PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "xterm-256color"], isTerminal: true).imageProtocol == .symbols)
        #expect(PreviewStyle.forTerminal(requested: .kitty, environment: [:], isTerminal: false).imageProtocol == .kitty)
        #expect(PreviewStyle.forTerminal(requested: .none, environment: kittyTerminal, isTerminal: true).imageProtocol == .none)
    }

    @Test("auto asks the terminal for sixel only when its variables name no protocol")
    func sixelQuery() {
        var asked = 0
        let sixel = PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "xterm"], isTerminal: true) {
            asked += 1
            return true
        }
        #expect(sixel.imageProtocol == .sixel && asked == 1)
        _ = PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "xterm-kitty"], isTerminal: true) {
            asked += 1
            return true
        }
        _ = PreviewStyle.forTerminal(requested: .auto, environment: ["TERM": "xterm"], isTerminal: false) {
            asked += 1
            return true
        }
        #expect(asked == 1)
    }

    @Test("NO_COLOR keeps symbols, in monochrome")
    func noColor() {
        let style = PreviewStyle.forTerminal(requested: .symbols, environment: ["TERM": "xterm", "NO_COLOR": "1"], isTerminal: true)
        #expect(style.imageProtocol == .symbols && style.colors == .monochrome)
    }
}

extension FeedClient {
    /// The client's previewer (FeedTestSupport plugs `ImagePreviews` in), or a failed test.
    var previewer: ImagePreviewer {
        get throws { try #require(previews) }
    }

    /// The client's thumbnail layer, or a failed test.
    var thumbnails: DiskCache {
        get throws { try #require(thumbnailCache) }
    }
}
