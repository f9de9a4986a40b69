import Foundation
import PostFeedRedis

extension RedisTestServer {
    /// How many `command` commands (e.g. `get`) the server ran so far, from `INFO commandstats`
    /// (`cmdstat_get:calls=12,…`): counts the tier's commands without MONITOR.
    func calls(of command: String) throws -> Int {
        let info = try cli("INFO", "commandstats")
        let prefix = "cmdstat_\(command.lowercased()):calls="
        guard let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Int(line.dropFirst(prefix.count).prefix(while: \.isNumber)) ?? 0
    }
}
