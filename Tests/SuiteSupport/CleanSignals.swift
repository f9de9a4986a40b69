import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with spawn attributes that start a process with no signal blocked and every
/// signal at its default.
///
/// The test runner's threads block most signals, and a process started with `posix_spawn`
/// inherits that mask: a daemon that never unblocks them (tmux's server, nginx with
/// `master_process off`) then ignores the SIGTERM meant to stop it and outlives the test.
public func withCleanSignalSpawnAttributes<T>(_ body: (inout posix_spawnattr_t) throws -> T) rethrows -> T {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return try body(&attributes)
}
