/// The syntax of a field path in a backend file: names joined by dots, a component of
/// decimal digits indexing an array from 0.
///
/// ```
/// title.rendered                          a nested object's member
/// _embedded.wp:featuredmedia.0.source_url the first element of an array
/// ```
enum FieldPath {
    /// What is wrong with `path`, or `nil` when it can be followed: an empty component
    /// (a leading, trailing or doubled dot) or an index of more than 9 digits.
    static func problem(_ path: String) -> String? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        for (offset, component) in components.enumerated() {
            if component.isEmpty {
                return "bad field path \"\(path)\": component \(offset + 1) is empty; write names joined by single dots, "
                    + "with 0, 1, … for array elements, e.g. \"_embedded.author.0.name\""
            }
            if component.utf8.allSatisfy({ (0x30...0x39).contains($0) }), component.utf8.count > 9 {
                return "bad field path \"\(path)\": index \(component) is out of range (at most 9 digits)"
            }
        }
        return nil
    }
}
