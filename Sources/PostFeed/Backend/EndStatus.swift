/// An error status that means "past the end of the list", not a failure: WordPress answers
/// a page past the last with `400` and `{"code": "rest_post_invalid_page_number", …}`.
///
/// In a config file's `"endStatus"` array: `{"status": 400, "code": "rest_post_invalid_page_number"}`,
/// or `400` alone for any body. A page answered so ends the list as a `404` past the
/// first page does (``RepositoryError/Code/pageOutOfRange``); the first page answered so
/// is still an error (every list has a first page).
public struct EndStatus: Sendable, Hashable {
    /// The HTTP status, 400…599.
    public var status: Int
    /// The error code the body must carry in its `code` (WordPress) or `error` field;
    /// `nil`: any body.
    public var code: String?

    /// The status `status`, with the body's error code `code` when given.
    public init(status: Int, code: String? = nil) {
        self.status = status
        self.code = code
    }

    /// Whether a response with `status` and `body` is this end.
    func matches(status: Int, body: JSONValue?) -> Bool {
        guard status == self.status else { return false }
        guard let code else { return true }
        for field in ["code", "error"] {
            if case .string(let text)? = body?[field], text == code { return true }
        }
        return false
    }
}
