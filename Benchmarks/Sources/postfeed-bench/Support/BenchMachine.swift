import Foundation

/// What the numbers were measured on.
enum BenchMachine {
    static var description: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        var os = "Linux"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            os = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        #if DEBUG
        let build = "debug build (numbers are not representative)"
        #else
        let build = "release build"
        #endif
        return "\(cores) cores, \(String(format: "%.0f", memory)) GiB, \(os), \(build)"
    }
}

/// A progress note on standard error (the tables go to standard output).
func note(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
