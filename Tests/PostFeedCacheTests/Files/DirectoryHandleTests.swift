import Foundation
import Testing
@testable import PostFeedCache

/// The folder handle every cache and state file is reached through.
@Suite("DirectoryHandle")
struct DirectoryHandleTests {
    @Test("a link where a folder or file is expected is refused by name, whatever it points to", arguments: LinkKind.allCases)
    func refusesLinks(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let root = try DirectoryHandle.openNamed(fixture.root.path, creating: false)
        try fixture.plantLink(kind, at: fixture.root.appendingPathComponent("planted"))

        var folderError: SystemCallError?
        do { _ = try root.folder("planted", creating: true) } catch { folderError = error }
        var fileError: SystemCallError?
        do { _ = try root.open("planted", flags: O_RDWR | O_CREAT) } catch { fileError = error }

        #expect(folderError?.isSymbolicLink == true, "\(String(describing: folderError))")
        #expect(fileError?.isSymbolicLink == true, "\(String(describing: fileError))")
        #expect(fileError?.description == "\(fixture.root.path)/planted is a symbolic link; refused")
        let status = try #require(root.status("planted"))
        #expect(FileSystem.isSymbolicLink(status))
        fixture.expectOutsideUntouched("folder, open")
    }

    @Test("renameWithoutReplacing never replaces a file, a folder or a link")
    func renameWithoutReplacing() throws {
        let fixture = try LinkFixture()
        let root = try DirectoryHandle.openNamed(fixture.root.path, creating: false)
        try Data("moving".utf8).write(to: fixture.root.appendingPathComponent("a"))
        try Data("taken".utf8).write(to: fixture.root.appendingPathComponent("file"))
        try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try fixture.plantLink(.dangling, at: fixture.root.appendingPathComponent("link"))

        for taken in ["file", "folder", "link"] {
            var error: SystemCallError?
            do { try root.renameWithoutReplacing("a", to: taken) } catch let thrown { error = thrown }
            #expect(error?.errno == EEXIST, "\(taken): \(String(describing: error))")
        }
        try root.renameWithoutReplacing("a", to: "free")
        #expect(try Data(contentsOf: fixture.root.appendingPathComponent("free")) == Data("moving".utf8))
        #expect(try Data(contentsOf: fixture.root.appendingPathComponent("file")) == Data("taken".utf8))
        #expect(root.status("a") == nil)
        fixture.expectOutsideUntouched("renames")
    }

    @Test("removeTree removes a folder and the links in it, never what they point to")
    func removeTree() throws {
        let fixture = try LinkFixture()
        let root = try DirectoryHandle.openNamed(fixture.root.path, creating: false)
        let folder = fixture.root.appendingPathComponent("tree/inner", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for kind in LinkKind.allCases { try fixture.plantLink(kind, at: folder.appendingPathComponent(kind.rawValue)) }

        #expect(root.removeTree("tree"))
        #expect(root.status("tree") == nil)
        fixture.expectOutsideUntouched("removeTree")
    }
}
