import Foundation

/// Unbuffered output: a process killed with SIGKILL must not lose lines it "printed".
enum StressOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func json(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            fail("cannot encode summary \(object)", status: 1)
        }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("cache-stress: \(message)\n".utf8))
        exit(status)
    }
}
