import Foundation
import Testing

@testable import PostFeed

/// The bound on one page's body: 8 MiB unless a backend file's `maximumPageBytes` says.
@Suite("Backend config files: maximumPageBytes")
struct MaximumPageBytesConfigTests {
    func configFile(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "postfeed-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "backend.json")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test("every preset and a custom file bound a page body to 8 MiB by default")
    func defaults() throws {
        #expect(BackendDescription.defaultMaximumPageBodySize == 8 * 1024 * 1024)
        for name in BackendDescription.presetNames {
            let backend = try BackendDescription.preset(name, baseURL: URL(string: "http://127.0.0.1:8080")!)
            #expect(backend.maximumPageBodySize == 8 * 1024 * 1024, "\(name)")
        }
        let custom = try BackendDescription(configuration: Data(#"{"baseURL":"http://h","pagination":"page"}"#.utf8))
        #expect(custom.maximumPageBodySize == BackendDescription.defaultMaximumPageBodySize)
    }

    @Test("maximumPageBytes sets it, from 1 byte to 1 GiB; null keeps the default")
    func setting() throws {
        func bound(_ value: String) throws -> Int {
            try BackendDescription(
                configuration: Data(#"{"baseURL":"http://h","preset":"dummyjson","maximumPageBytes":\#(value)}"#.utf8)
            ).maximumPageBodySize
        }
        #expect(try bound("65536") == 65536)
        #expect(try bound("1") == 1)
        #expect(try bound("1073741824") == 1 << 30)
        #expect(try bound("2.0E6") == 2_000_000, "a whole number written with an exponent")
        #expect(try bound("null") == BackendDescription.defaultMaximumPageBodySize)
    }

    @Test(
        "a maximumPageBytes that is no size names the file and the key",
        arguments: ["0", "-1", "1.5", "1073741825", "1e300", "99999999999999999999999", #""8 MiB""#, "true", "[1]"])
    func badValues(value: String) throws {
        let file = try configFile(#"{"baseURL":"http://h","pagination":"page","maximumPageBytes":\#(value)}"#)
        do {
            let backend = try BackendDescription.load(from: file)
            Issue.record("\(value) was accepted as \(backend.maximumPageBodySize)")
        } catch {
            #expect(error.file == file)
            #expect(error.field == "maximumPageBytes")
            #expect(error.description.contains(file.path) && error.description.contains(#"field "maximumPageBytes""#))
            #expect(error.message.contains("whole number of bytes") && error.message.contains("1 GiB"), "\(error)")
        }
    }

    @Test("Codable writes maximumPageBytes and reads it back")
    func roundTrip() throws {
        var backend = try BackendDescription.preset("postfeed", baseURL: URL(string: "http://127.0.0.1:8080")!)
        backend.maximumPageBodySize = 123_456
        let data = try JSONEncoder().encode(backend)
        #expect(String(decoding: data, as: UTF8.self).contains(#""maximumPageBytes":123456"#))
        #expect(try JSONDecoder().decode(BackendDescription.self, from: data) == backend)
    }
}
