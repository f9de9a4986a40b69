import Foundation
import PostFeedPreview
import PostFeed
import PostFeedCache
import Testing

/// Issue 29: a layer folder under the cache root (`ImageCache/`, `PageCache/`,
/// `ThumbnailCache/`) that is a symbolic link is not "a file in the way": opening the
/// storage refuses it in one line naming it, and nothing outside is touched. The root
/// itself may be a link the user chose: it is resolved once.
@Suite("Cache root layers and symbolic links")
struct FeedStorageSymbolicLinkTests {
    static func openingFailure(_ location: CacheLocation) -> String {
        do {
            _ = try FeedStorage(location: location, layers: ImagePreviews().diskLayers)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a linked layer folder is refused by name", arguments: ["ImageCache", "PageCache", "ThumbnailCache"], StateLinkKind.allCases)
    func layerFolder(layer: String, kind: StateLinkKind) throws {
        let fixture = try StateLinkFixture()
        defer { fixture.remove() }
        let folder = fixture.root.appendingPathComponent(layer, isDirectory: true)
        try fixture.plantLink(kind, at: folder)

        let message = Self.openingFailure(CacheLocation(root: fixture.root))
        expectStateRefusal(message, naming: folder)
        let saysInTheWay = message.contains("a file is in the way")
        #expect(!saysInTheWay, "\(message)")
        fixture.expectOutsideUntouched("open")
        #expect(StateLinkFixture.isLink(folder))
    }

    @Test("a root that is itself a link the user chose is used; its layers are real folders")
    func linkedRootIsUsed() throws {
        let fixture = try StateLinkFixture()
        defer { fixture.remove() }
        let real = fixture.base.appendingPathComponent("real-root", isDirectory: true)
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let linkedRoot = fixture.base.appendingPathComponent("linked-root")
        try FileManager.default.createSymbolicLink(atPath: linkedRoot.path, withDestinationPath: real.path)

        let storage = try FeedStorage(location: CacheLocation(root: linkedRoot))
        try storage.pageCache.store(Data("page".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        try storage.stateStore.save(StateSamples.infinite())
        let names = ScratchFolder.names(in: real)
        #expect(names.contains("PageCache") && names.contains("State"), "\(names)")
        #expect(storage.pageCache.entry(forKey: "k")?.data == Data("page".utf8))
        fixture.expectOutsideUntouched("open, store, save")
    }
}
