import Foundation
import PostFeedServer
import Testing

private let escape = "\u{1B}"

@Suite("postfeed show: the image preview above the text")
struct ShowImageTests {
    static let title42 = "#42  Field guide: retry loops and code reviews"

    /// What `show` printed above the post's title: the preview.
    static func preview(_ run: PostfeedResult) -> String {
        // Up to the title's first line ("#42  …": a narrow COLUMNS wraps the rest of it).
        run.standardOutput.components(separatedBy: "#42  ").first ?? ""
    }

    /// `cache stats --json`'s ThumbnailCache layer.
    static func thumbnailStats(_ sandbox: Sandbox) async throws -> [String: Any] {
        let run = try await sandbox.run(["cache", "stats", "--json"])
        #expect(run.succeeded, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let caches = try #require(object["caches"] as? [[String: Any]])
        let thumbnailLayer = caches.first { $0["name"] as? String == "ThumbnailCache" }
        let layer = try #require(thumbnailLayer, "\(caches)")
        return try #require(layer["statistics"] as? [String: Any])
    }

    @Test("piped, or with --images none, not one escape sequence")
    func noEscapesWhenPipedOrNone() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            for arguments in [["show", "42"], ["show", "42", "--images", "none"], ["show", "42", "--images", "auto"]] {
                let run = try await sandbox.run(arguments, against: server)
                #expect(run.succeeded, "\(run)")
                #expect(!run.standardOutput.contains(escape), "\(run)")
                #expect(run.outputLines.first == Self.title42, "\(run)")
            }
            // Nothing drawn, nothing stored
            #expect(try await Self.thumbnailStats(sandbox)["entryCount"] as? Int == 0)
        }
    }

    @Test("--images kitty: APC G chunks of at most 4096 base64 bytes, m=1 on all but the last")
    func kittyFraming() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["show", "42", "--images", "kitty"], against: server)
            #expect(run.succeeded, "\(run)")
            let output = run.standardOutput
            let textStart = try #require(output.range(of: Self.title42))
            let graphics = String(output[..<textStart.lowerBound])
            // ESC _ G <control data> ; <payload> ESC \
            let chunks = graphics.components(separatedBy: "\(escape)_G").dropFirst()
            #expect(chunks.count >= 2, "a 450×450 image at 80 columns takes several chunks")
            for (index, chunk) in chunks.enumerated() {
                let end = try #require(chunk.range(of: "\(escape)\\"), "chunk \(index) ends with ST")
                let body = chunk[..<end.lowerBound]
                // `<control>;<payload>`, or the control data alone (no payload).
                let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                let control = parts[0].split(separator: ",")
                let payload = parts.count == 2 ? parts[1] : ""
                #expect(payload.count % 4 == 0, "chunk \(index): whole base64 quanta")
                #expect(payload.count <= 4096, "chunk \(index): \(payload.count) bytes")
                let isBase64 = payload.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) }
                #expect(isBase64, "chunk \(index): base64")
                let isLast = index == chunks.count - 1
                #expect(control.contains(isLast ? "m=0" : "m=1"), "chunk \(index) of \(chunks.count): \(control)")
                // Post 42's PNG is opaque: 24-bit RGB.
                if index == 0 { #expect(control.contains("a=T") && control.contains("f=24"), "\(control)") }
            }
            // The chunks joined are one base64 text of s × v RGB pixels.
            var keys: [String: String] = [:]
            for pair in try #require(chunks.first).prefix(while: { $0 != ";" }).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
            }
            let payload = chunks.map { chunk in
                String(chunk.prefix { $0 != "\u{1B}" }.drop { $0 != ";" }.dropFirst())
            }.joined()
            let announcedWidth = keys["s"].flatMap { Int($0) }, announcedHeight = keys["v"].flatMap { Int($0) }
            let width = try #require(announcedWidth)
            let height = try #require(announcedHeight)
            let pixels = try #require(Data(base64Encoded: payload), "the joined payload is not base64")
            #expect(pixels.count == width * height * 3)
        }
    }

    @Test("--images iterm: OSC 1337 File= inline=1 with base64 ending in BEL or ST")
    func itermFraming() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["show", "42", "--images", "iterm"], against: server)
            #expect(run.succeeded, "\(run)")
            let output = run.standardOutput
            let start = try #require(output.range(of: "\(escape)]1337;File="))
            let rest = output[start.upperBound...]
            let colon = try #require(rest.firstIndex(of: ":"))
            let arguments = rest[..<colon].split(separator: ";")
            #expect(arguments.contains("inline=1"), "\(arguments)")
            let terminatorIndex = rest.firstIndex { $0 == "\u{07}" || $0 == "\u{1B}" }
            let terminator = try #require(terminatorIndex)
            let payload = rest[rest.index(after: colon)..<terminator]
            #expect(payload.count > 100 && Data(base64Encoded: String(payload)) != nil)
            #expect(output.contains(Self.title42))
        }
    }

    @Test("--images sixel: DCS … q sixel data ST")
    func sixelFraming() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["show", "42", "--images", "sixel"], against: server)
            #expect(run.succeeded, "\(run)")
            let output = run.standardOutput
            let start = try #require(output.range(of: "\(escape)P"))
            let rest = output[start.upperBound...]
            let q = try #require(rest.firstIndex(of: "q"))
            let numericParameters = rest[..<q].allSatisfy { $0.isNumber || $0 == ";" }
            #expect(numericParameters, "DCS parameters: \(rest[..<q])")
            let end = try #require(rest.range(of: "\(escape)\\"))
            let data = rest[rest.index(after: q)..<end.lowerBound]
            // Sixel data: colour introducers, repeats, carriage returns, new lines and sixel characters.
            let strangers = data.unicodeScalars.filter { !(0x3F...0x7E).contains($0.value) && !"#!$-;0123456789\"".unicodeScalars.contains($0) }
            let strangerCodes = strangers.map { "U+\(String($0.value, radix: 16))" }
            #expect(strangers.isEmpty, "not sixel data: \(strangerCodes)")
            #expect(data.contains("#") && data.contains("-"))
            #expect(output[end.upperBound...].contains(Self.title42))
        }
    }

    @Test("a second show draws from the thumbnail: one entry written, then read")
    func thumbnailReused() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let first = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(first.succeeded, "\(first)")
            let afterFirst = try await Self.thumbnailStats(sandbox)
            #expect(afterFirst["entryCount"] as? Int == 1 && afterFirst["writes"] as? Int == 1, "\(afterFirst)")

            let second = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(Self.preview(second) == Self.preview(first) && !Self.preview(first).isEmpty)
            let afterSecond = try await Self.thumbnailStats(sandbox)
            #expect(afterSecond["writes"] as? Int == 1, "nothing rendered again: \(afterSecond)")
            #expect((afterSecond["hits"] as? Int ?? 0) == (afterFirst["hits"] as? Int ?? 0) + 1, "\(afterSecond)")

            // cache stats lists the thumbnails on their own line
            let stats = try await sandbox.run(["cache", "stats"])
            let countsOneEntry = stats.outputLines.contains { $0.hasPrefix("ThumbnailCache: 1 entry,") }
            #expect(countsOneEntry, "\(stats)")
        }
    }

    @Test("a new ETag draws a new thumbnail; cache prune removes the old one")
    func newETagThenPrune() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let (before, port) = try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            (try await sandbox.run(["show", "42", "--images", "symbols"], against: server), server.port)
        }
        #expect(before.succeeded, "\(before)")
        try fixtures.replace("img-060.png", with: Data(contentsOf: fixtures.image("img-003.png")))
        try await RunningFixtureServer.withRunning(fixtures.configuration(port: port), waitingForPort: .seconds(15)) { server in
            // When: the image changed on the server
            let after = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(after.succeeded, "\(after)")
            #expect(Self.preview(after) != Self.preview(before), "the preview shows the new image")
            #expect(try await Self.thumbnailStats(sandbox)["entryCount"] as? Int == 2)

            // Then: prune removes the thumbnail of the old image only
            let prune = try await sandbox.run(["cache", "prune"])
            #expect(prune.succeeded, "\(prune)")
            let removedOne = prune.outputLines.contains { $0.hasPrefix("ThumbnailCache: removed 1 whose image is gone or changed") }
            #expect(removedOne, "\(prune)")
            #expect(try await Self.thumbnailStats(sandbox)["entryCount"] as? Int == 1)
            let json = try await sandbox.run(["cache", "prune", "--json"])
            #expect(json.standardOutput.contains("\"orphansRemoved\" : 0"), "\(json)")

            // And the new one is still read, not drawn again
            let again = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(Self.preview(again) == Self.preview(after))
            #expect(try await Self.thumbnailStats(sandbox)["writes"] as? Int == 2)
        }
    }

    enum BadImage: String, CaseIterable, Sendable {
        case truncated, corrupt, bomb
    }

    @Test("a bad image: one line saying why, the text still printed, exit 0", arguments: BadImage.allCases)
    func badImage(_ kind: BadImage) async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let original = try Data(contentsOf: fixtures.image("img-060.png"))
        let bytes: Data = switch kind {
        case .truncated: original.prefix(original.count / 3)
        case .corrupt: original.prefix(33) + Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        case .bomb: BadImages.pngBomb(width: 50_000, height: 50_000)
        }
        try fixtures.replace("img-060.png", with: bytes)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.first == Self.title42, "\(run)")
            let notes = run.errorLines.filter { $0.contains("is not drawn") }
            #expect(notes.count == 1, "\(run)")
            let note = try #require(notes.first)
            #expect(note.contains("/images/img-060.png"), "names the image: \(note)")
            switch kind {
            case .bomb: #expect(note.contains("50000×50000") && note.contains("limit"), "\(note)")
            case .truncated, .corrupt: #expect(note.contains("PNG"), "\(note)")
            }
            #expect(try await Self.thumbnailStats(sandbox)["entryCount"] as? Int == 0)
        }
    }
}
