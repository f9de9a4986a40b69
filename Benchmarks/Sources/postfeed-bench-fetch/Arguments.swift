import Foundation

/// The command line, both the parent's and a child's.
struct Arguments {
    /// Set in a child: which client to measure.
    var client: Client?
    var concurrencies = [1, 16, 64]
    var repeats = 5
    var fileCount = 1000
    var clients = Client.measured
    /// Child: the file with one URL per line.
    var urlList: String?
    /// Child: the folder `postfeed-download` writes into.
    var downloadFolder: String?
    /// Child: the concurrency of this run.
    var concurrency = 1
    /// Parent: only serve the corpus (for profiling a child by hand) until stdin closes.
    var serveOnly = false

    init(_ words: ArraySlice<String>) throws {
        var words = words
        func value(_ flag: String) throws -> String {
            guard let value = words.popFirst() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        func numbers(_ flag: String) throws -> [Int] {
            let list = try value(flag).split(separator: ",").map { Int($0) }
            guard !list.isEmpty, list.allSatisfy({ ($0 ?? 0) > 0 }) else {
                throw UsageError("\(flag) wants positive numbers, e.g. 1,16,64")
            }
            return list.compactMap { $0 }
        }
        while let flag = words.popFirst() {
            switch flag {
            case "--concurrency":
                let list = try numbers(flag)
                concurrencies = list
                concurrency = list[0]
            case "--repeats": repeats = try numbers(flag)[0]
            case "--files": fileCount = try numbers(flag)[0]
            case "--clients":
                clients = try value(flag).split(separator: ",").map {
                    guard let client = Client(rawValue: String($0)) else {
                        throw UsageError("unknown client \($0); one of \(Client.allCases.map(\.rawValue))")
                    }
                    return client
                }
            case "--client":
                let name = try value(flag)
                guard let client = Client(rawValue: name) else { throw UsageError("unknown client \(name)") }
                self.client = client
            case "--urls": urlList = try value(flag)
            case "--download-folder": downloadFolder = try value(flag)
            case "--serve-only": serveOnly = true
            case "--help", "-h":
                print(
                    """
                    usage: postfeed-bench-fetch [--concurrency 1,16,64] [--repeats 5] [--files 1000] \\
                               [--clients \(Client.measured.map(\.rawValue).joined(separator: ","))]
                           postfeed-bench-fetch --serve-only      serve the files until stdin closes
                           postfeed-bench-fetch --client NAME --concurrency N --urls FILE [--download-folder DIR]
                    """)
                exit(0)
            default: throw UsageError("unknown argument \(flag); see --help")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
