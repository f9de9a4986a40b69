import Foundation
import PackagePlugin

/// Compiles the documentation's code: writes every ```swift block of the README and of the
/// DocC catalog's articles to a Swift file of its own in the target it is applied to
/// (DocSnippetTests), so that a block that no longer compiles fails the build.
@main
struct DocSnippetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        var documents = [root.appending(path: "README.md")]
        let catalog = root.appending(path: "Sources/PostFeed/PostFeed.docc")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".md") {
            documents.append(catalog.appending(path: name))
        }
        // One output file per block: count them the way the tool finds them.
        var blocks = 0
        for document in documents {
            let text = (try? String(contentsOf: document, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            // A block that starts `// Package.swift` is a manifest's part, not compiled.
            blocks += lines.indices.filter { index in
                lines[index].trimmingCharacters(in: .whitespaces) == "```swift"
                    && lines.dropFirst(index + 1).first != "// Package.swift"
            }.count
        }
        let folder = context.pluginWorkDirectoryURL
        let outputs = (0..<blocks).map { folder.appending(path: "DocSnippet\($0).swift") }
            + [folder.appending(path: "DocSnippetCounts.swift")]
        return [
            .buildCommand(
                displayName: "Extracting the documentation's Swift snippets",
                executable: try context.tool(named: "doc-snippets").url,
                arguments: [folder.path] + documents.map(\.path),
                inputFiles: documents,
                outputFiles: outputs)
        ]
    }
}
