import SuiteSupport
import Foundation

/// A small tmpfs of the test's own: a disk that really fills up, so writes fail with
/// `ENOSPC` as on a full disk (root or not).
///
/// The file system is mounted in a private mount namespace (`unshare -rm`, which needs no
/// root where unprivileged user namespaces are allowed), held by a shell that waits on its
/// stdin, and reached from outside through `/proc/<holder>/root/<mount point>` — also by
/// the `postfeed` processes the test starts. ``close()`` ends the holder, and with it the
/// namespace and the mount: nothing stays mounted, even when the test process dies.
final class ScratchFileSystem: @unchecked Sendable {
    // `Process` and `Pipe` are not Sendable; this object only waits on and closes them.
    private let holder: ChildProcess
    private let input: Pipe
    /// The root of the file system, as other processes reach it.
    let root: URL

    /// Mounts a tmpfs of `size` bytes at `mountPoint` (an empty folder, created if needed).
    init(size: Int, mountPoint: URL) throws {
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let errors = Pipe()
        input = Pipe()
        holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=\(size),mode=0755 tmpfs \"$1\" || exit 3; "
                + "while read line; do mount -o remount,ro \"$1\"; done",
            "scratch", mountPoint.path,
        ]
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = errors
        try holder.run()
        root = URL(fileURLWithPath: "/proc/\(holder.processIdentifier)/root\(mountPoint.path)", isDirectory: true)
        // Ready once the holder's namespace lists the mount.
        let deadline = Date().addingTimeInterval(10)
        let entry = " \(mountPoint.path) tmpfs "
        while true {
            let mounts = (try? String(contentsOfFile: "/proc/\(holder.processIdentifier)/mounts", encoding: .utf8)) ?? ""
            if mounts.contains(entry) { break }
            guard holder.isRunning, Date() < deadline else {
                close()
                let reason = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw EndToEndError("cannot mount a \(size)-byte tmpfs at \(mountPoint.path): \(reason.isEmpty ? "timed out" : reason)")
            }
            usleep(10_000)
        }
    }

    deinit { close() }

    /// Unmounts: the holder reads end-of-file on its stdin and exits.
    func close() {
        try? input.fileHandleForWriting.close()
        if holder.isRunning {
            let deadline = Date().addingTimeInterval(5)
            while holder.isRunning, Date() < deadline { usleep(10_000) }
            if holder.isRunning { holder.terminate() }
        }
        holder.waitUntilExit()
    }

    /// Remounts the file system read-only (`EROFS` for every write, root or not); returns
    /// once a write is refused.
    func makeReadOnly() throws {
        try input.fileHandleForWriting.write(contentsOf: Data("ro\n".utf8))
        let probe = root.appendingPathComponent(".probe-\(UUID().uuidString)").path
        let deadline = Date().addingTimeInterval(10)
        while true {
            let descriptor = open(probe, O_WRONLY | O_CREAT, 0o644)
            if descriptor < 0, errno == EROFS { return }
            if descriptor >= 0 {
                Glibc.close(descriptor)
                unlink(probe)
            }
            guard Date() < deadline else { throw EndToEndError("\(root.path) is still writable after remounting read-only") }
            usleep(10_000)
        }
    }

    /// Whether this machine lets a test mount one (checked once, on a 64 KiB tmpfs).
    static let isAvailable: Bool = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-scratch-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let probe = try? ScratchFileSystem(size: 64 << 10, mountPoint: folder) else { return false }
        probe.close()
        return true
    }()

    /// Fills the free space to the last byte with `name` (a file the tool does not know):
    /// writes 4 KiB chunks until the kernel refuses one with `ENOSPC`. Returns its size.
    @discardableResult
    func fill(withFile name: String) throws -> Int {
        let path = root.appendingPathComponent(name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw EndToEndError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(descriptor) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        var written = 0
        while true {
            let result = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result > 0 {
                written += result
                continue
            }
            if result < 0, errno == EINTR { continue }
            if result < 0, errno == ENOSPC { return written }
            throw EndToEndError("filling \(path) failed after \(written) bytes: \(String(cString: strerror(errno)))")
        }
    }

    /// Bytes free right now, from `df` semantics (`statvfs`).
    var freeBytes: Int {
        var info = statvfs()
        guard statvfs(root.path, &info) == 0 else { return -1 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}
