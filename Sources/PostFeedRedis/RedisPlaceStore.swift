import Foundation
import PostFeed
import PostFeedCache

/// Readers' places in Redis, for a service running as several instances: any instance
/// continues any reader's place (``FeedClient/Configuration/placeStore``).
///
/// **One key per reader**, `<namespace>reader:<name>`, a hash with a field per record
/// (`infinite`, `paged`, `popularity`, each the JSON a state file holds) and a revision
/// field per record. Every operation touches that one key only (`HMGET`, and a one-key
/// `EVAL` that writes a record only when its revision is still the one read), so a Redis
/// Cluster works unchanged.
///
/// **The same rule as the State files**: a save based on an older generation than the
/// record's is merged with it (``ReaderPlaceRecord/merge(_:over:basedOn:in:)``), never
/// overwrites it. The read, merge and write are one compare-and-set, tried again when
/// another instance wrote in between.
///
/// Unlike the shared cache tier, a place is not optional: a save that Redis cannot take
/// throws (`.writeFailed`), and a load that cannot reach Redis says so in
/// ``ReaderPlaceLoad/problem``.
///
/// ```swift
/// import PostFeed
/// import PostFeedRedis
///
/// func configure(_ configuration: inout FeedClient.Configuration) throws {
///     let redis = RedisCache.Configuration(address: try RedisAddress(parsing: "redis://127.0.0.1:6379"), timeout: .seconds(2))
///     configuration.placeStore = RedisPlaceStore(configuration: redis)
/// }
/// ```
public final class RedisPlaceStore: ReaderPlaceStore {
    /// The connection settings (address, namespace, timeout, reconnect delays). The
    /// shared tier's 50 ms default timeout is short for a place: give it a second or two.
    public let configuration: RedisCache.Configuration
    let link: RedisLink
    /// Compare-and-set attempts per save before it gives up (only when other instances
    /// save the same reader's record that often).
    static let attempts = 16

    /// A store on `configuration.address`; it connects on first use.
    public init(configuration: RedisCache.Configuration) {
        self.configuration = configuration
        self.link = RedisLink(
            address: configuration.address, timeout: configuration.timeout, reconnectDelay: configuration.reconnectDelay,
            maxReconnectDelay: configuration.maxReconnectDelay, warn: configuration.warningHandler)
    }

    /// The one Redis key holding `reader`'s records. A ``ReaderID`` is a checked name, so
    /// the key cannot reach another reader's.
    public func key(for reader: ReaderID) -> String {
        configuration.namespace + "reader:" + (reader.isDefault ? ".default" : reader.rawValue)
    }

    /// Writes ARGV[3] to field ARGV[1] and bumps its revision field ARGV[1]:rev, only when
    /// that revision is still ARGV[2]; returns 1 when written, 0 when another wrote first.
    static let compareAndSetScript = """
        local rev = redis.call('HGET', KEYS[1], ARGV[1] .. ':rev') or '0'
        if rev ~= ARGV[2] then return 0 end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[3], ARGV[1] .. ':rev', tostring(tonumber(rev) + 1))
        return 1
        """

    // MARK: ReaderPlaceStore

    public func loadPlace(_ mode: ListMode, backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<ListState> {
        let where_ = described(mode.rawValue, reader)
        switch await read(field: mode.rawValue, reader: reader) {
        case .failure(let failure): return ReaderPlaceLoad(state: nil, problem: "cannot read \(where_) (\(failure.message)); starting fresh")
        case .success(let record):
            guard let data = record.data else { return ReaderPlaceLoad(state: nil) }
            return ReaderPlaceRecord.decode(data, mode: mode, backendIdentity: backendIdentity, where: where_)
        }
    }

    public func savePlace(_ state: ListState, basedOn generation: Int, reader: ReaderID) async throws(ListStateError)
        -> ListStateStore.SaveOutcome
    {
        let field = state.mode.rawValue
        let location = described(field, reader)
        return try await compareAndSet(field: field, reader: reader) { (data: Data?) throws(ListStateError) in
            let current = data.flatMap {
                ReaderPlaceRecord.decode($0, mode: state.mode, backendIdentity: state.backendIdentity, where: location).state
            }
            let outcome = ReaderPlaceRecord.merge(state, over: current, basedOn: generation, in: location)
            return (try ReaderPlaceRecord.encode(outcome.state, where: self.url(location)), outcome)
        }
    }

    public func loadPopularityPlace(backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<PopularityOrderState> {
        let where_ = described("popularity", reader)
        let empty = PopularityOrderState(backendIdentity: backendIdentity)
        switch await read(field: "popularity", reader: reader) {
        case .failure(let failure): return ReaderPlaceLoad(state: empty, problem: "cannot read \(where_) (\(failure.message)); starting fresh")
        case .success(let record):
            guard let data = record.data else { return ReaderPlaceLoad(state: empty) }
            let load = ReaderPlaceRecord.decodePopularity(data, backendIdentity: backendIdentity, where: where_)
            return ReaderPlaceLoad(state: load.state ?? empty, problem: load.problem)
        }
    }

    public func savePopularityPlace(_ state: PopularityOrderState, basedOn generation: Int, reader: ReaderID)
        async throws(ListStateError) -> PopularityOrderState
    {
        let location = described("popularity", reader)
        return try await compareAndSet(field: "popularity", reader: reader) { (data: Data?) throws(ListStateError) in
            let current = data.flatMap {
                ReaderPlaceRecord.decodePopularity($0, backendIdentity: state.backendIdentity, where: location).state
            }
            let merged = ReaderPlaceRecord.mergePopularity(state, over: current, basedOn: generation)
            return (try ReaderPlaceRecord.encodePopularity(merged, where: self.url(location)), merged)
        }
    }

    // MARK: Records

    private struct Record {
        var data: Data?
        var revision: String
    }

    /// `field`'s bytes and revision in `reader`'s key (one `HMGET`).
    private func read(field: String, reader: ReaderID) async -> Result<Record, RedisFailure> {
        let result = await link.run([
            Data("HMGET".utf8), Data(key(for: reader).utf8), Data(field.utf8), Data((field + ":rev").utf8),
        ])
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(.array(let items)) where items.count == 2:
            let data: Data? = if case .string(let bytes) = items[0] { bytes } else { nil }
            let revision = if case .string(let bytes) = items[1] { String(decoding: bytes, as: UTF8.self) } else { "0" }
            return .success(Record(data: data, revision: revision))
        case .success(let other): return .failure(.failed("unexpected reply to HMGET: \(other)"))
        }
    }

    /// Reads `field`, hands its bytes to `update`, and writes what it returns only when no
    /// other instance wrote the field in between; else reads again (at most ``attempts``).
    private func compareAndSet<T>(
        field: String, reader: ReaderID, _ update: (Data?) throws(ListStateError) -> (Data, T)
    ) async throws(ListStateError) -> T {
        let location = described(field, reader)
        for _ in 0..<Self.attempts {
            let record: Record
            switch await read(field: field, reader: reader) {
            case .success(let found): record = found
            case .failure(let failure): throw saveError(location, failure)
            }
            let (data, value) = try update(record.data)
            let result = await link.run([
                Data("EVAL".utf8), Data(Self.compareAndSetScript.utf8), Data("1".utf8), Data(key(for: reader).utf8),
                Data(field.utf8), Data(record.revision.utf8), data,
            ], retryable: false)
            switch result {
            case .success(.integer(1)): return value
            case .success(.integer(0)): continue  // another instance wrote first: merge with theirs
            case .success(let other): throw saveError(location, .failed("unexpected reply: \(other)"))
            case .failure(let failure): throw saveError(location, failure)
            }
        }
        throw ListStateError(
            .writeFailed, url: url(location),
            message: "cannot save \(location): other instances saved it \(Self.attempts) times while this one tried; try again")
    }

    private func described(_ field: String, _ reader: ReaderID) -> String {
        "the \(field) place of \(reader) in redis://\(configuration.address.host):\(configuration.address.port)/\(key(for: reader))"
    }

    private func url(_ location: String) -> URL {
        URL(string: "redis://\(configuration.address.host):\(configuration.address.port)")
            ?? URL(fileURLWithPath: "/")
    }

    private func saveError(_ location: String, _ failure: RedisFailure) -> ListStateError {
        ListStateError(
            .writeFailed, url: url(location),
            message: "cannot save \(location) (\(failure.message)); the place is unchanged there; check that Redis is running")
    }
}
