import Foundation

extension DiskCache {
    /// The file holding `key`'s entry, when one exists (for showing where an image lives;
    /// read entries through ``entry(forKey:)``, which validates them).
    public func fileURL(forKey key: String) -> URL? {
        let path = layout.entryPath(forKey: key)
        return FileManager.default.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
    }
}
