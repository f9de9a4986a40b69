import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, started with `posix_spawn` and reaped with `waitpid`:
/// the part of Foundation's `Process` the suites use, without its Linux crash.
///
/// Foundation's `Process.run()` (swift-corelibs-foundation in Swift 6.3.1) lists
/// `/proc/self/fd` to close the parent's descriptors in the child and copies each
/// `dirent`'s whole 256-byte `d_name`, reading past glibc's buffer: with the many
/// descriptors of suites running in parallel (servers, caches, pipes), the test process
/// crashed in `memcpy` inside `Process.run()` (fixed upstream in
/// swift-corelibs-foundation#5472, not in this toolchain).
///
/// Here the child gets what the caller names on 0, 1 and 2, every other descriptor is
/// closed (glibc's `closefrom` action), no signal is blocked and every signal is at its
/// default (the test runner's threads block most signals, and a daemon started with
/// that mask ignores the SIGTERM meant to stop it).
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended, as Foundation's `Process.TerminationReason`.
    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    // Set before `run()`, read only by it: the same contract as Foundation's `Process`.
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's environment; `nil` inherits this process's.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `FileHandle`, a `Pipe` or `nil` (inherit), as Foundation's `Process` takes.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private struct State {
        var pid: pid_t = 0
        /// The `waitpid` status, once reaped.
        var status: Int32?
    }

    private let state = Mutex(State())

    public init() {}

    public var processIdentifier: Int32 { state.withLock { $0.pid } }

    /// Starts the child. Throws when it cannot be started (no executable, a bad folder).
    public func run() throws {
        guard let executable = executableURL?.path else {
            throw ChildProcessError("no executable set")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEndsToClose: [FileHandle] = []
        try redirect(standardInput, to: 0, reading: true, actions: &actions, parentEnds: &parentEndsToClose)
        try redirect(standardOutput, to: 1, reading: false, actions: &actions, parentEnds: &parentEndsToClose)
        try redirect(standardError, to: 2, reading: false, actions: &actions, parentEnds: &parentEndsToClose)
        if let directory = currentDirectoryURL?.path {
            guard let addChdir = Self.addChdir else { throw ChildProcessError("posix_spawn cannot change folders here") }
            let result = directory.withCString { addChdir(&actions, $0) }
            guard result == 0 else { throw ChildProcessError("chdir action for \(directory)", result) }
        }
        if let closeFrom = Self.addCloseFrom {
            closeFrom(&actions, 3)
        }

        let argv = [executable] + arguments
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = envp.map { strdup($0) } + [nil]
        defer { (cArgv + cEnvp).forEach { free($0) } }
        let spawned = withCleanSignalSpawnAttributes { attributes in
            posix_spawn(&pid, executable, &actions, &attributes, cArgv, cEnvp)
        }
        // The child has its copies now (or never will): the parent's ends of the pipes
        // that belong to the child are closed, as Foundation's `Process` does.
        for handle in parentEndsToClose { try? handle.close() }
        guard spawned == 0 else { throw ChildProcessError("cannot start \(executable)", spawned) }
        state.withLock { $0.pid = pid }
    }

    /// Whether the child has not been reaped yet (reaps it when it has exited).
    public var isRunning: Bool {
        state.withLock { state in
            guard state.pid > 0 else { return false }
            if state.status != nil { return false }
            var status: Int32 = 0
            let waited = waitpid(state.pid, &status, WNOHANG)
            if waited == state.pid { state.status = status; return false }
            if waited == -1 && errno == ECHILD { state.status = 0; return false }
            return true
        }
    }

    /// Blocks until the child has exited. Polls, so two threads may wait at once.
    public func waitUntilExit() {
        var pause: UInt32 = 500
        while isRunning {
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
    }

    /// Waits until the child has exited without holding a thread: a test whose child talks
    /// to a server in this process must not block one of the (two, here) threads that
    /// server's handlers run on.
    public func exited() async {
        while isRunning {
            guard !Task.isCancelled else { return waitUntilExit() }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The exit status, or the signal number when ``terminationReason`` is `.uncaughtSignal`.
    public var terminationStatus: Int32 {
        let status = state.withLock { $0.status } ?? 0
        return Self.signalled(status) ? status & 0x7f : (status >> 8) & 0xff
    }

    public var terminationReason: TerminationReason {
        let status = state.withLock { $0.status } ?? 0
        return Self.signalled(status) ? .uncaughtSignal : .exit
    }

    /// Sends SIGTERM, when the child still runs.
    public func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    // MARK: Spawning

    private static func signalled(_ status: Int32) -> Bool {
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f
    }

    private func redirect(
        _ target: Any?, to descriptor: Int32, reading: Bool,
        actions: inout posix_spawn_file_actions_t, parentEnds: inout [FileHandle]
    ) throws {
        switch target {
        case nil:
            return  // inherited
        case let pipe as Pipe:
            let childEnd = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, descriptor)
            // Closed in the parent once the child has its copy (through the handle, so
            // its own close never hits a reused number): a reader then sees the end of
            // the file when the child exits.
            parentEnds.append(childEnd)
        case let handle as FileHandle:
            if handle === FileHandle.nullDevice || handle.fileDescriptor < 0 {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, descriptor)
            }
        default:
            throw ChildProcessError("standard stream \(descriptor) must be a Pipe or a FileHandle")
        }
    }

    // glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29)
    // are not visible from Swift's Glibc module; looked up once by name.
    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias PathAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static let addCloseFrom: FileAction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: FileAction.self)
    }()

    private static let addChdir: PathAction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: PathAction.self)
    }()
}

/// A child that could not be started, with the reason.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String

    init(_ what: String, _ code: Int32? = nil) {
        description = code.map { "\(what): \(String(cString: strerror($0)))" } ?? what
    }
}
