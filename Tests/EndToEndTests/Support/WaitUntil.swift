import Foundation

/// Polls `condition` every `interval` for up to 30 s; whether it became true.
func waitUntil(every interval: Duration = .milliseconds(20), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return condition()
}
