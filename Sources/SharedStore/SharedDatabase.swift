import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import RadioModel
import Store

/// Where the shared database is: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (also `postgres://`),
/// with libpq's `sslmode` and `sslrootcert` parameters: `?sslmode=verify-full&sslrootcert=/etc/onair/db-ca.pem`.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode`s, as psql reads them. `prefer` (libpq's default) encrypts when the server offers
    /// TLS and verifies nothing; `require` insists on TLS; `verify-ca` also checks the server's certificate
    /// chain, and `verify-full` its name too: the two that stop a machine in the middle.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public let host: String
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String
    public let tlsMode: TLSMode
    /// `sslrootcert`: the certificate authorities (PEM) that `verify-ca`/`verify-full` trust; the system's when nil.
    public let rootCertificates: String?

    public init(url text: String) throws(StoreError) {
        guard let url = URLComponents(string: text), ["postgresql", "postgres"].contains(url.scheme ?? ""),
              let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty else {
            throw StoreError("invalid database URL '\(text)': use postgresql://USER@HOST:PORT/DATABASE")
        }
        let database = String(url.path.drop { $0 == "/" })
        self.host = host
        port = url.port ?? 5432
        self.user = user
        password = url.password
        self.database = database.isEmpty ? user : database
        var mode = TLSMode.prefer, roots: String?
        for item in url.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw StoreError("invalid sslmode '\(item.value ?? "")' in the database URL: use one of "
                                     + TLSMode.allCases.map(\.rawValue).joined(separator: ", "))
                }
                mode = value
            case "sslrootcert":
                roots = item.value
            default:
                throw StoreError("the database URL's parameter '\(item.name)' is not one onair reads: sslmode and sslrootcert are")
            }
        }
        tlsMode = mode
        rootCertificates = roots
    }

    /// The URL without its password, for messages and `onair status`.
    public var description: String {
        "postgresql://\(user)@\(host):\(port)/\(database)" + (tlsMode == .prefer ? "" : "?sslmode=\(tlsMode.rawValue)")
    }

    /// postgres-nio's TLS setting for `tlsMode`; a root certificate file that cannot be read is one line.
    func connectionTLS() throws(StoreError) -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable: return .disable
        // postgres-nio has no plain-first mode: `allow` encrypts when it can, as `prefer` does.
        case .allow, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificates { configuration.trustRoots = .file(rootCertificates) }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw StoreError("database \(self): cannot use sslrootcert '\(rootCertificates ?? "")': \(error)")
        }
        return tlsMode == .require || tlsMode == .verifyCA || tlsMode == .verifyFull ? .require(context) : .prefer(context)
    }
}

/// A statement's rows, and a way to run more statements in the same transaction.
public struct PostgresSession {
    fileprivate let live: LiveConnection
    fileprivate let logger: Logger
    fileprivate let timeout: TimeAmount

    fileprivate var connection: PostgresConnection { live.connection }

    /// Runs one statement and collects its rows. Waits on the calling thread (see `SharedDatabase`).
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        // A server that stops answering (a partition that drops packets) would hold the caller until the
        // kernel gives the connection up, about 15 minutes: past `timeout` the answer is given up and the
        // connection closed.
        let answer = live.send(query, logger: logger)
        let watchdog = connection.eventLoop.scheduleTask(in: timeout) { [connection, timeout] in
            answer.fail(NoAnswer(timeout: timeout))
            connection.close().whenComplete { _ in }
        }
        defer { watchdog.cancel() }
        return Array(try answer.futureResult.wait().rows)
    }
}

/// A connection and the statement it is answering. postgres-nio never answers a statement sent on a
/// connection that closes under it (a server restarting: the service soak's requests waited the whole
/// timeout), so the close answers it. One close callback per connection, not per statement: callbacks on
/// a connection's close stay until it closes, and each would keep its statement's rows.
final class LiveConnection: @unchecked Sendable {  // `inFlight` and `closed` on the connection's event loop only
    let connection: PostgresConnection
    private var inFlight: EventLoopPromise<PostgresQueryResult>?
    private var closed = false

    init(_ connection: PostgresConnection) {
        self.connection = connection
        connection.closeFuture.whenComplete { [weak self] _ in
            guard let self else { return }
            closed = true
            inFlight?.fail(ConnectionClosed())
            inFlight = nil
        }
    }

    /// Closes the connection, kept until it has closed (postgres-nio asserts that one is never dropped open).
    func discard() {
        connection.close().whenComplete { [self] _ in _ = self }
    }

    /// Sends a statement; its answer is the server's, or the connection's close, whichever comes first.
    func send(_ query: PostgresQuery, logger: Logger) -> EventLoopPromise<PostgresQueryResult> {
        let answer = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        connection.eventLoop.execute { [self] in
            guard !closed else { return answer.fail(ConnectionClosed()) }
            inFlight = answer
            answer.futureResult.whenComplete { [weak self] _ in
                if self?.inFlight?.futureResult === answer.futureResult { self?.inFlight = nil }
            }
            connection.query(query, logger: logger).cascade(to: answer)
        }
        return answer
    }
}

/// The connection closed before the statement's answer came (the server restarted or ended the session).
private struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the server closed the connection" }
}

/// The server did not answer in time, to connect or to a statement.
private struct NoAnswer: Error {
    let timeout: TimeAmount
    var description: String { "no answer within \(String(format: "%g", Double(timeout.nanoseconds) / 1e9)) s" }
}

/// PostgreSQL, the database several daemons share, for onair's synchronous stores.
///
/// postgres-nio is asynchronous while the stores and their callers are synchronous (the scheduler's
/// loop thread, the finaliser's queue, a command's main thread), so each call waits for its result
/// on the calling thread — one of onair's own threads, never Swift's cooperative pool nor the event
/// loop (NIO traps a wait there) — while the socket is served by one event-loop thread this object
/// owns. One connection, used by one caller at a time, keeps a transaction's statements together;
/// when the server goes away (a restart) or stops answering, the call fails with one plain line and
/// the next call connects again.
public final class SharedDatabase: Sendable {
    public let location: PostgresLocation
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The one connection, held by one caller at a time for a whole transaction.
    private let connection = Locked<LiveConnection?>(nil)
    private let logger: Logger
    private let timeout: TimeAmount
    private let tls: PostgresConnection.Configuration.TLS

    /// Connects at once, so a wrong URL or a server that is down is reported before anything starts.
    /// `timeout`: how long connecting, and then each statement, may wait for the server's answer
    /// (two lease lengths: a statement that takes longer has lost the leases anyway).
    public init(location: PostgresLocation, timeout: TimeInterval = 30) throws(StoreError) {
        self.location = location
        self.timeout = .milliseconds(Int64(timeout * 1000))
        tls = try location.connectionTLS()
        var logger = Logger(label: "onair.postgres")
        logger.logLevel = .critical
        self.logger = logger
        try transaction { _ in }
    }

    deinit {
        try? connection.current?.connection.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Runs one statement on its own.
    @discardableResult
    public func query(_ query: PostgresQuery) throws(StoreError) -> [PostgresRow] {
        try transaction { session in try session.query(query) }
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: (PostgresSession) throws -> T) throws(StoreError) -> T {
        do {
            return try connection.withLock { connection in
                let session = try begin(&connection)
                do {
                    let result = try body(session)
                    try session.query("COMMIT")
                    return result
                } catch {
                    if !Self.forget(&connection, if: session, failedWith: error) { _ = try? session.query("ROLLBACK") }
                    throw error
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as NoAnswer {
            throw StoreError("database \(location): \(error.description)")
        } catch let error as PSQLError {
            throw StoreError("database \(location): \(describe(error))")
        } catch {
            throw StoreError("database \(location): \(error)")
        }
    }

    /// A session with a transaction begun. The server may have ended the connection while it sat idle (a
    /// restart), which shows only when it is used: when BEGIN finds it closed nothing has run yet, so it
    /// begins once more on a new connection instead of failing the caller (the soak's PostgreSQL restarts
    /// met this a few times an hour).
    private func begin(_ connection: inout LiveConnection?) throws -> PostgresSession {
        for attempt in 1...2 {
            let session = PostgresSession(live: try open(&connection), logger: logger, timeout: timeout)
            do {
                try session.query("BEGIN")
                return session
            } catch {
                Self.forget(&connection, if: session, failedWith: error)
                guard attempt == 1, Self.isLost(session, by: error) else { throw error }
            }
        }
        preconditionFailure("the second attempt returns or throws")
    }

    /// Forgets the connection when the server ended its session or stopped answering (closing it, kept until it
    /// has); true then. Otherwise the connection stays, usable after a rollback.
    @discardableResult
    private static func forget(_ connection: inout LiveConnection?, if session: PostgresSession, failedWith error: Error) -> Bool {
        guard isLost(session, by: error) || error is NoAnswer else { return false }
        connection?.discard()
        connection = nil
        return true
    }

    /// Whether the server ended the session: the connection closed, or its last answer was the error a server
    /// sends as it ends one (SQLSTATE class 57: an administrator's command, a shutdown, a server starting up),
    /// which can come before the connection shows as closed.
    private static func isLost(_ session: PostgresSession, by error: Error) -> Bool {
        if session.connection.isClosed || error is ConnectionClosed { return true }
        guard let error = error as? PSQLError else { return false }
        return error.code == .serverClosedConnection || error.serverInfo?[.sqlState]?.hasPrefix("57") == true
    }

    /// Applies, in order, the migrations not applied yet, each in its own transaction. The same
    /// identifiers as the SQLite migrations (`schedule-v1`, …), in the table `onair_migration`; an
    /// advisory lock keeps daemons starting together from applying one twice.
    public func migrate(_ migrations: [(identifier: String, statements: [PostgresQuery])]) throws(StoreError) {
        for migration in migrations {
            try transaction { session in
                try session.query("SELECT pg_advisory_xact_lock(7243)")
                try session.query("""
                    CREATE TABLE IF NOT EXISTS onair_migration (identifier TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """)
                let applied = try session.query("SELECT 1 FROM onair_migration WHERE identifier = \(migration.identifier)")
                guard applied.isEmpty else { return }
                for statement in migration.statements { try session.query(statement) }
                try session.query("INSERT INTO onair_migration (identifier) VALUES (\(migration.identifier))")
            }
        }
    }

    private func open(_ connection: inout LiveConnection?) throws -> LiveConnection {
        if let connection, !connection.connection.isClosed { return connection }
        var configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                             password: location.password, database: location.database, tls: tls)
        // Covers the TCP connection and the server's start-up handshake.
        configuration.options.connectTimeout = timeout
        let opened = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        let live = LiveConnection(opened)
        connection = live
        return live
    }

    /// PSQLError's own description hides the server's message; this is the line a user needs.
    private func describe(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] { return message }
        if error.code == .sslUnsupported { return "the server does not offer TLS" }
        if let tls = error.underlying as? NIOSSLExtraError, tls == .failedToValidateHostname {
            return "the server's certificate is not for \(location.host)"
        }
        if case .handshakeFailed? = error.underlying as? NIOSSLError {
            return "the server's certificate is not signed by " + (location.rootCertificates.map { "an authority in \($0)" } ?? "an authority this system trusts")
        }
        if case .connectTimeout? = error.underlying as? ChannelError { return "cannot connect: \(NoAnswer(timeout: timeout).description)" }
        if let failure = error.underlying as? NIOConnectionError,
           let io = failure.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first {
            return "cannot connect: \(String(cString: strerror(io.errnoCode)))"
        }
        // A closed connection wraps what closed it, often the server's own error ("terminating connection due to
        // administrator command"); PSQLError's description would hide it.
        if let inner = error.underlying as? PSQLError { return describe(inner) }
        if error.code == .serverClosedConnection || error.code == .clientClosedConnection { return ConnectionClosed().description }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
