import Foundation

extension DiskCache {
    /// The file holding `key`'s entry, when one exists as a regular file (for showing where
    /// an image lives; read entries through ``entry(forKey:)``, which validates them). `nil`
    /// when the entry or its fan-out folder is a symbolic link: its path would lead outside.
    public func fileURL(forKey key: String) -> URL? {
        let name = CacheLayout.name(forKey: key)
        guard let folder = try? folders.fanOut(CacheLayout.folderName(forName: name)),
              let status = folder.status(name), FileSystem.isRegularFile(status) else { return nil }
        return URL(fileURLWithPath: layout.entryPath(forName: name))
    }
}
