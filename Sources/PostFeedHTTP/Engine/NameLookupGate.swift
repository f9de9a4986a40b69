/// Lets one transfer per origin look its name up before the others to that origin start.
///
/// A page of twenty images on a host the engine has not reached yet was twenty concurrent
/// lookups of one name. A resolver that drops part of such a burst (glibc then waits its
/// 5 s timeout before asking again) held a page of images on a host under `.invalid` for
/// 5 s, where one lookup answers NXDOMAIN in milliseconds. So the first transfer to an
/// origin goes alone; once its name has resolved the origin gets its whole per-host cap,
/// and when it does not resolve, the transfers waiting for that origin fail with the same
/// error without asking the resolver again. Hosts written as addresses need no lookup and
/// are never held.
///
/// Engine thread only; `Lookup` is the engine's transfer.
struct NameLookupGate<Lookup: AnyObject> {
    /// Origins whose name resolved in this engine: only the per-host cap applies to them.
    private var resolved: Set<String> = []
    /// The transfer looking each held origin's name up now.
    private var lookingUp: [String: Lookup] = [:]

    /// How many transfers to the origin `key` may run at once: `cap` once its name has
    /// resolved, else one (the lookup's).
    func limit(forOrigin key: String, cap: Int) -> Int {
        resolved.contains(key) ? cap : 1
    }

    /// `transfer` to the origin `key` was handed to curl: it looks the name up unless that
    /// is done.
    mutating func started(_ transfer: Lookup, origin key: String, hostIsAddress: Bool) {
        guard !resolved.contains(key) else { return }
        if hostIsAddress {
            resolved.insert(key)
        } else if lookingUp[key] == nil {
            lookingUp[key] = transfer
        }
    }

    /// Opens the origins whose lookup got past the name (`nameResolved` asks curl); returns
    /// whether any opened, so the engine starts their waiters.
    mutating func openResolved(_ nameResolved: (Lookup) -> Bool) -> Bool {
        guard !lookingUp.isEmpty else { return false }
        var opened = false
        for (key, transfer) in lookingUp where nameResolved(transfer) {
            lookingUp[key] = nil
            resolved.insert(key)
            opened = true
        }
        return opened
    }

    /// Whether `transfer` is the one looking the origin `key`'s name up now: only its
    /// failure to resolve says the waiters' name does not resolve.
    func isLookingUp(_ transfer: Lookup, origin key: String) -> Bool {
        lookingUp[key] === transfer
    }

    /// `transfer` left curl (finished, failed, cancelled, stalled). An origin whose lookup
    /// ended without a name stays held: its next waiter looks the name up again.
    mutating func ended(_ transfer: Lookup, origin key: String, nameResolved: Bool) {
        guard lookingUp[key] === transfer else { return }
        lookingUp[key] = nil
        if nameResolved { resolved.insert(key) }
    }
}
