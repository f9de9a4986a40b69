/// "1 image", "2 images", "1 entry", "3 entries": `count` with its noun, plural (`many`, by
/// default `one` + "s") unless it is one. For every count the commands print.
func counted(_ count: some BinaryInteger, _ one: String, _ many: String? = nil) -> String {
    "\(count) \(count == 1 ? one : (many ?? one + "s"))"
}
