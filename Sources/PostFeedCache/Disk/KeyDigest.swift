/// SHA-256 of a string's UTF-8 bytes, as lowercase hex: the digest that names a cache
/// entry's file, for keys that must tell secrets apart without holding them (a URL's
/// `user:password`, keyed as a digest so two accounts never share an entry).
public enum KeyDigest {
    public static func hex(_ text: String) -> String { CacheLayout.name(forKey: text) }
}
