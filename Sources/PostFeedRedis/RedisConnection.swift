import PostFeedCache
internal import CHiredis
import Foundation

/// One hiredis connection. Its context is freed when the object goes. Not thread-safe:
/// only ``RedisLink``'s queue uses it, one command at a time.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    /// The send/receive timeout, for messages.
    private let timeoutMilliseconds: Int

    /// Connects within `timeoutMilliseconds`, which also bounds every command's send and
    /// receive, then selects `address.database` when it is not 0.
    init(address: RedisAddress, timeoutMilliseconds: Int) throws(RedisFailure) {
        guard let context = pf_redis_connect(address.host, Int32(clamping: address.port), timeoutMilliseconds) else {
            throw .unavailable("cannot allocate a hiredis context")
        }
        if pf_redis_err(context) != 0 {
            let message = Self.described(String(cString: pf_redis_errstr(context)), timeoutMilliseconds: timeoutMilliseconds)
            redisFree(context)
            throw .unavailable("cannot connect: \(message)")
        }
        self.context = context
        self.timeoutMilliseconds = timeoutMilliseconds
        if address.database != 0 {
            let reply = try command([Data("SELECT".utf8), Data(String(address.database).utf8)])
            if case .error(let message) = reply { throw .failed("SELECT \(address.database): \(message)") }
        }
    }

    deinit { redisFree(context) }

    /// hiredis's error text, with a timeout said as one: a send or receive past the socket
    /// timeout fails with `EAGAIN` ("Resource temporarily unavailable"), a connect with
    /// `ETIMEDOUT` or `EINPROGRESS`.
    static func described(_ message: String, timeoutMilliseconds: Int) -> String {
        let timeouts = [EAGAIN, EWOULDBLOCK, ETIMEDOUT, EINPROGRESS].map { String(cString: strerror($0)) } + ["Timeout"]
        return timeouts.contains(message) ? "timed out after \(timeoutMilliseconds) ms" : message
    }

    /// Sends one command, each argument binary-safe, and reads its reply.
    /// - Throws: `.unavailable` when the connection failed or timed out (it is then
    ///   unusable: drop it).
    func command(_ arguments: [Data]) throws(RedisFailure) -> RedisReply {
        // One buffer holding every argument, so each has a stable address for the call.
        var buffer = [UInt8]()
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets = [Int]()
        for argument in arguments {
            offsets.append(buffer.count)
            buffer.append(contentsOf: argument)
        }
        buffer.append(0)
        let lengths = arguments.map(\.count)
        let reply: UnsafeMutablePointer<redisReply>? = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                let base = characters.baseAddress
                var argv: [UnsafePointer<CChar>?] = offsets.map { offset in base.map { UnsafePointer($0 + offset) } }
                return argv.withUnsafeMutableBufferPointer { argvBuffer in
                    lengths.withUnsafeBufferPointer { lengthBuffer in
                        pf_redis_command(context, Int32(clamping: arguments.count), argvBuffer.baseAddress, lengthBuffer.baseAddress)
                    }
                }
            }
        }
        guard let reply else {
            let code = pf_redis_err(context)
            let message = Self.described(String(cString: pf_redis_errstr(context)), timeoutMilliseconds: timeoutMilliseconds)
            throw .unavailable(code == 0 ? "no reply" : message)
        }
        defer { freeReplyObject(reply) }
        return RedisReply(reply.pointee)
    }
}

/// A reply, copied out of hiredis's object.
enum RedisReply: Sendable, Equatable {
    case string(Data)
    case integer(Int64)
    case null
    case status(String)
    case error(String)
    case array([RedisReply])

    init(_ reply: redisReply) {
        switch reply.type {
        case REDIS_REPLY_STRING:
            self = .string(reply.str.map { Data(bytes: $0, count: reply.len) } ?? Data())
        case REDIS_REPLY_INTEGER:
            self = .integer(reply.integer)
        case REDIS_REPLY_STATUS:
            self = .status(reply.str.map { String(cString: $0) } ?? "")
        case REDIS_REPLY_ERROR:
            self = .error(reply.str.map { String(cString: $0) } ?? "error")
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            if let element = reply.element {
                for index in 0..<reply.elements {
                    if let item = element[index] { elements.append(RedisReply(item.pointee)) }
                }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }
}
