import Hummingbird

// Header names HTTPTypes does not predefine. The literals are valid field names, so the
// initialiser cannot fail.
extension HTTPFields.Element.Name {
    static let xTotalCount = Self("X-Total-Count")!
    static let link = Self("Link")!
    static let pragma = Self("Pragma")!
    static let xPoweredBy = Self("X-Powered-By")!
}
