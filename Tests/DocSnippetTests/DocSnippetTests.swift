import Foundation
import Testing

/// The documentation's code compiles: the DocSnippets plugin turns every ```swift block of
/// the README and of `PostFeed.docc`'s articles into code of this target, so a block that
/// no longer compiles fails the build. This test checks that none was left out.
@Suite("Documentation snippets")
struct DocSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func documents() throws -> [URL] {
        let catalog = root.appending(path: "Sources/PostFeed/PostFeed.docc")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return [root.appending(path: "README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { catalog.appending(path: $0) }
    }

    @Test("every ```swift block of the README and the articles is compiled")
    func everyBlockIsCompiled() throws {
        let documents = try Self.documents()
        #expect(documents.count >= 1)
        var total = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            // A block that starts `// Package.swift` is a manifest's part, not compiled.
            let blocks = lines.indices.filter { index in
                lines[index].trimmingCharacters(in: .whitespaces) == "```swift"
                    && lines.dropFirst(index + 1).first != "// Package.swift"
            }.count
            #expect(DocSnippets.counts[document.lastPathComponent] == blocks, "\(document.lastPathComponent)")
            total += blocks
        }
        #expect(total > 0, "the README shows the library's use in ```swift blocks")
    }
}
