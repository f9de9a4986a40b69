import Logging
import PostFeed

/// The one place where the library's typed recoveries become this tool's flags and
/// commands. The library says what failed and hands over a ``Recovery``; it never names a
/// flag or a command, and nothing here reads a message to find out what went wrong.
enum RecoveryAdvice {
    /// What to do about `recovery`, in the tool's terms, with the punctuation that joins it
    /// to what failed (as ``Recovery/advice`` has).
    static func advice(for recovery: Recovery) -> String {
        switch recovery {
        case .allowMoreTime:
            "; check the server, or allow more time (--timeout, or a backend file's timeout)"
        case .checkStalledServer:
            // The stall limit is no setting of the CLI's: --timeout only ever shortens it.
            ": check the server (a longer --timeout does not lengthen this limit)"
        case .checkProxy:
            "; check the proxy URL (--proxy, or HTTPS_PROXY / HTTP_PROXY / ALL_PROXY) and that it is running, "
                + "or go direct with --proxy \"\" or NO_PROXY"
        case .checkBackend:
            "; check that the base URL and the backend describe this API (--base-url, --api or --backend)"
        case .chooseAnotherCacheRoot:
            " or choose another cache folder with --cache-dir"
        case .verifyCache:
            "; run `postfeed cache verify` or clear the cache"
        case .resetState:
            " (postfeed state reset starts over)"
        case .startFromFirstPage:
            " ('postfeed page --first' starts over)"
        case .showPageOfThisBackend:
            " ('postfeed page' or 'postfeed list', which keep the file aside)"
        case .raisePageBodyLimit:
            ". Raise the limit with a backend file's maximumPageBytes if such pages are expected"
        }
    }

    /// `error`'s one line with the tool's advice when it is a ``RecoverableError`` with a
    /// recovery; its description otherwise.
    static func message(for error: any Error) -> String {
        if let error = error as? any RecoverableError { return error.message(advice: advice(for:)) }
        return "\(error)"
    }

    /// `error`'s one line when it is a ``RecoverableError`` (worded with the tool's advice);
    /// `nil` for other errors, which ArgumentParser words itself.
    static func messageIfRecoverable(_ error: any Error) -> String? {
        guard let error = error as? any RecoverableError else { return nil }
        return error.message(advice: advice(for:))
    }

    /// An image's failure as a post's image line says it: its message (without the URL,
    /// which the line names) and the tool's advice for its recovery.
    static func reason(of error: ImagePipelineError) -> String {
        error.message + (error.recovery.map(advice(for:)) ?? "")
    }

    /// A library warning's line: its message (what failed) followed by the tool's advice
    /// for the recovery code it carries under ``Recovery/metadataKey``, which is removed
    /// from `metadata`.
    static func warning(_ message: String, metadata: inout Logger.Metadata) -> String {
        guard let code = metadata.removeValue(forKey: Recovery.metadataKey) else { return message }
        guard let recovery = Recovery(rawValue: "\(code)") else { return message }
        return message + advice(for: recovery)
    }

    /// How `cache stats` names where the cache root came from.
    static func rootSource(_ source: CacheLocation.Source) -> String {
        switch source {
        case .option: "--cache-dir"
        default: source.rawValue
        }
    }
}
