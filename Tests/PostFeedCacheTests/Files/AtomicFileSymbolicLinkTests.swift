import Foundation
import Testing
@testable import PostFeedCache

/// The atomic-file-and-lock primitive never follows a link at the file it is given: a
/// read, a write or a lock on a link throws one ``SystemCallError`` naming it ("… is a
/// symbolic link; refused"), and nothing outside is read, written or created.
@Suite("AtomicFile and LockFile refuse symbolic links")
struct AtomicFileSymbolicLinkTests {
    static func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("reading a link is refused", arguments: LinkKind.allCases)
    func read(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let link = fixture.root.appendingPathComponent("state.json")
        try fixture.plantLink(kind, at: link)
        let message = Self.failure { _ = try AtomicFile(path: link.path).read(maximumBytes: 1 << 20) }
        expectRefusal(message, naming: link)
        fixture.expectOutsideUntouched("read")
    }

    @Test("writing over a link is refused; the link stays", arguments: LinkKind.allCases)
    func write(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let link = fixture.root.appendingPathComponent("state.json")
        try fixture.plantLink(kind, at: link)
        let message = Self.failure { try AtomicFile(path: link.path).write(Data("new".utf8)) }
        expectRefusal(message, naming: link)
        #expect(LinkFixture.isLink(link))
        fixture.expectOutsideUntouched("write")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("locking a linked lock file is refused, and creates nothing", arguments: LinkKind.allCases)
    func lock(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let link = fixture.root.appendingPathComponent(".lock")
        try fixture.plantLink(kind, at: link)
        let message = Self.failure { try LockFile(path: link.path).withExclusiveLock {} }
        expectRefusal(message, naming: link)
        fixture.expectOutsideUntouched("lock")
    }

    @Test("a link in the folder a file is written in is never followed", arguments: LinkKind.allCases)
    func temporaryName(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let file = AtomicFile(path: fixture.root.appendingPathComponent("state.json").path)
        let planted = file.temporaryPath()
        try fixture.plantLink(kind, at: URL(fileURLWithPath: planted))
        let message = Self.failure { try file.write(Data("new".utf8), temporaryPath: planted) }
        #expect(message.contains(planted), "\(message)")
        fixture.expectOutsideUntouched("write")
    }
}
