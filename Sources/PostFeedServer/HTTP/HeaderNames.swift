import HTTPTypes

// Header names HTTPTypes does not predefine. The literals are valid field names, so the
// initialiser cannot fail.
extension HTTPField.Name {
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
    static let link = HTTPField.Name("Link")!
    static let pragma = HTTPField.Name("Pragma")!
    static let xPoweredBy = HTTPField.Name("X-Powered-By")!
}
