import Foundation
import PostFeedServer
import Testing

/// The reader's place is worth more than any cached image: when the disk is full, a save
/// trims the tool's own caches and tries again. On a real full file system (a small tmpfs,
/// see ``ScratchFileSystem``), with the real binary.
@Suite("postfeed on a full disk", .enabled(if: ScratchFileSystem.isAvailable, "no tmpfs can be mounted here (unshare -rm)"))
struct FullDiskStateTests {
    /// `postfeed <arguments> --cache-dir <cacheRoot> [--base-url <server>]` in the sandbox.
    private func run(
        _ arguments: [String], cacheRoot: URL, in sandbox: Sandbox, against server: RunningFixtureServer? = nil
    ) async throws -> PostfeedResult {
        let backend = server.map { ["--base-url", $0.baseURL.absoluteString] } ?? []
        return try await PostfeedProcess.run(arguments + backend + ["--cache-dir", cacheRoot.path], in: sandbox.directory)
    }

    private func bytes(under folder: URL, in sandbox: Sandbox) -> Int {
        sandbox.regularFiles(under: folder).reduce(0) { total, file in
            total + ((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }

    @Test("When the tool's image cache fills the disk, list trims it and still saves its place")
    func imagesFillTheDisk() async throws {
        let sandbox = try Sandbox()
        let disk = try ScratchFileSystem(size: 1536 << 10, mountPoint: sandbox.directory.appendingPathComponent("disk"))
        defer { disk.close() }
        let cacheRoot = disk.root.appendingPathComponent("cache", isDirectory: true)
        let images = cacheRoot.appendingPathComponent("ImageCache", isDirectory: true)
        let stateFile = cacheRoot.appendingPathComponent("State/infinite-scroll-state.json")
        try await withFixtureServer { server in
            // Given: two pages whose images (~2 MB) are more than the 1.5 MiB disk holds
            let first = try await run(["list", "--pages", "2"], cacheRoot: cacheRoot, in: sandbox, against: server)
            #expect(first.succeeded, "\(first)")
            // …and whatever the cache could not use filled to the last byte
            try disk.fill(withFile: "other-files")
            try #require(disk.freeBytes == 0, "the disk still has \(disk.freeBytes) bytes free")
            let imageBytes = bytes(under: images, in: sandbox)
            try #require(imageBytes > 1 << 20, "the image cache holds only \(imageBytes) bytes")
            let before = sandbox.cacheEntries(in: images).count

            // When the next page is read (without images: the next pages' image prefetches
            // would refill what the save freed, and the counts below would race them)
            let next = try await run(["list", "--no-images"], cacheRoot: cacheRoot, in: sandbox, against: server)

            // Then its place is saved, made room for by the image cache alone
            #expect(next.succeeded, "\(next)")
            #expect(next.standardError.contains("infinite-scroll-state.json"), "the user is told the disk was full: \(next)")
            let state = try sandbox.stateJSON(stateFile)
            // Posts 1–60 (written as one run since state version 2).
            let loaded = try StateJSON.decode(contentsOf: stateFile).loadedPostIDs
            #expect(loaded == Array(1...60), "\(state)")
            #expect(sandbox.cacheEntries(in: images).count < before)
            #expect(bytes(under: images, in: sandbox) < imageBytes)
            #expect(FileManager.default.fileExists(atPath: disk.root.appendingPathComponent("other-files").path))

            // And the next run reads it back
            let shown = try await run(["state", "show"], cacheRoot: cacheRoot, in: sandbox)
            #expect(shown.succeeded, "\(shown)")
            #expect(shown.standardOutput.contains("60"), "\(shown)")
        }
    }

    @Test("When nothing of the tool's can make room, the save fails naming the state file, the old one intact")
    func nothingToTrim() async throws {
        let sandbox = try Sandbox()
        let disk = try ScratchFileSystem(size: 2 << 20, mountPoint: sandbox.directory.appendingPathComponent("disk"))
        defer { disk.close() }
        let cacheRoot = disk.root.appendingPathComponent("cache", isDirectory: true)
        let stateFolder = cacheRoot.appendingPathComponent("State", isDirectory: true)
        let stateFile = stateFolder.appendingPathComponent("infinite-scroll-state.json")
        try await withFixtureServer { server in
            // Given a saved place, empty caches and a disk full of other files
            let first = try await run(["list", "--no-images"], cacheRoot: cacheRoot, in: sandbox, against: server)
            try #require(first.succeeded, "\(first)")
            let clear = try await run(["cache", "clear"], cacheRoot: cacheRoot, in: sandbox)
            try #require(clear.succeeded, "\(clear)")
            let saved = try Data(contentsOf: stateFile)
            try disk.fill(withFile: "other-files")
            try #require(disk.freeBytes == 0)

            // When the next page is read
            let next = try await run(["list", "--no-images"], cacheRoot: cacheRoot, in: sandbox, against: server)

            // Then it fails in one line naming the file and what to do, and the old place stands
            #expect(next.failed, "\(next)")
            let message = try #require(next.errorMessage, "\(next)")
            #expect(message.contains(stateFile.path) || message.contains("State/infinite-scroll-state.json"), "\(message)")
            #expect(message.contains("No space left on device"), "\(message)")
            #expect(message.contains("free disk space"), "\(message)")
            #expect(try Data(contentsOf: stateFile) == saved)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: stateFolder.path).filter { $0.contains(".tmp") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }
}
