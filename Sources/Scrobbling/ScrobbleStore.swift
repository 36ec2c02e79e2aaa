import Foundation
import GRDB
import Store

/// What went wrong with scrobbling, in one line.
public struct ScrobbleError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The ListenBrainz account and the listens not yet sent, in onair's database on this box: the queue survives the
/// server being away and the process being stopped, and is sent in order.
public final class ScrobbleStore: Sendable {
    /// Where listens go: the server (ListenBrainz's, or one that speaks its API) and the user's token. The token is
    /// kept as it is: it must be sent as it is (the database is the user's own file).
    public struct Account: Sendable, Equatable {
        public var server: String
        public var token: String
        public init(server: String, token: String) { (self.server, self.token) = (server, token) }
    }

    public static let listenBrainz = "https://api.listenbrainz.org"
    /// Listens kept at most while the server is away (about a month of one station's songs); the oldest go first.
    public static let mostQueued = 20_000

    private let database: OnairDatabase
    /// Held while a process sends the queue: two onair processes (a daemon, `onair listen`) never send one listen both.
    private let drainLock: URL?

    public init(database: OnairDatabase, drainLock: URL? = nil) throws(ScrobbleError) {
        self.database = database
        self.drainLock = drainLock
        do {
            try database.migrate { migrator in
                migrator.registerMigration("scrobble-v1") { db in
                    try db.create(table: "scrobbleAccount") { t in
                        t.column("id", .integer).primaryKey()
                        t.column("server", .text).notNull()
                        t.column("token", .text).notNull()
                    }
                    try db.create(table: "scrobbleQueue") { t in
                        t.autoIncrementedPrimaryKey("id")
                        t.column("listen", .blob).notNull()
                        t.column("queuedAt", .datetime).notNull()
                    }
                }
            }
        } catch {
            throw ScrobbleError("scrobbling: \(error)")
        }
    }

    public convenience init(dataDirectory: URL) throws(ScrobbleError) {
        let database: OnairDatabase
        do { database = try OnairDatabase(directory: dataDirectory) } catch { throw ScrobbleError("scrobbling: \(error)") }
        try self.init(database: database, drainLock: dataDirectory.appendingPathComponent("scrobble.lock"))
    }

    /// Runs `body` while this process alone sends the queue; false (and `body` not run) while another one does.
    func sendingAlone(_ body: () -> Void) -> Bool {
        guard let drainLock else { body(); return true }
        let descriptor = open(drainLock.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { body(); return true }  // no lock to be had: a lone process, as before
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        body()
        return true
    }

    public func account() throws(ScrobbleError) -> Account? {
        try tables { db in
            try Row.fetchOne(db, sql: "SELECT server, token FROM scrobbleAccount WHERE id = 1").map { Account(server: $0["server"], token: $0["token"]) }
        }
    }

    public func setAccount(_ account: Account?) throws(ScrobbleError) {
        try tables { db in
            try db.execute(sql: "DELETE FROM scrobbleAccount")
            if let account {
                try db.execute(sql: "INSERT INTO scrobbleAccount (id, server, token) VALUES (1, ?, ?)", arguments: [account.server, account.token])
            }
        }
    }

    /// Keeps `listen` to be sent; past `mostQueued`, the oldest is let go.
    public func enqueue(_ listen: Listen) throws(ScrobbleError) {
        let data = (try? JSONEncoder().encode(listen)) ?? Data()
        try tables { db in
            try db.execute(sql: "INSERT INTO scrobbleQueue (listen, queuedAt) VALUES (?, ?)", arguments: [data, Date()])
            try db.execute(sql: "DELETE FROM scrobbleQueue WHERE id NOT IN (SELECT id FROM scrobbleQueue ORDER BY id DESC LIMIT ?)",
                           arguments: [Self.mostQueued])
        }
    }

    /// The oldest listen waiting, with its place in the queue.
    public func oldest() throws(ScrobbleError) -> (id: Int64, listen: Listen)? {
        try tables { db in
            while let row = try Row.fetchOne(db, sql: "SELECT id, listen FROM scrobbleQueue ORDER BY id LIMIT 1") {
                if let listen = try? JSONDecoder().decode(Listen.self, from: row["listen"] as Data) { return (row["id"], listen) }
                // A row that does not read (written by a later onair) is let go rather than stopping the queue.
                try db.execute(sql: "DELETE FROM scrobbleQueue WHERE id = ?", arguments: [row["id"] as Int64])
            }
            return nil
        }
    }

    public func remove(_ id: Int64) throws(ScrobbleError) {
        try tables { db in try db.execute(sql: "DELETE FROM scrobbleQueue WHERE id = ?", arguments: [id]) }
    }

    public func queued() throws(ScrobbleError) -> Int {
        try tables { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scrobbleQueue") ?? 0 }
    }

    private func tables<T>(_ body: (Database) throws -> T) throws(ScrobbleError) -> T {
        do { return try database.write(body) } catch { throw ScrobbleError("scrobbling: \(error)") }
    }
}
