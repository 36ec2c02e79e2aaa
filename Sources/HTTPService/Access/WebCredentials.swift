import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GRDB
import HummingbirdBcrypt
import RadioModel
import Store

/// A credential change that cannot be made, told in one plain line.
public struct WebCredentialsError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Who may use the daemon's web app and API from another machine, kept in onair's database: the web
/// password (its bcrypt hash only), named API tokens (their SHA-256 only: a token is 256 random bits,
/// so a fast hash is enough and a bearer request costs no bcrypt), the key that signs the feeds'
/// secret addresses (created with the first credential; podcast apps cannot log in), and the login
/// sessions (by the SHA-256 of their cookie, so a restarted daemon keeps them). A new password ends
/// every session and gives the feeds new addresses: whoever knew the old one keeps nothing.
public final class WebCredentials: Sendable {
    /// What a request is checked against, read once per request.
    public struct Snapshot: Sendable {
        var passwordHash: String?
        var tokenHashes: Set<String>
        var feedKey: SymmetricKey?
        var appKey: SymmetricKey?
        /// Whether an app password is set (read only when a Subsonic request needs it). It is made only once a password
        /// or a token exists, and is of no use while neither does.
        var hasAppPassword: Bool

        /// With no password and no token, only this machine may be served, and nothing is asked.
        public var isConfigured: Bool { passwordHash != nil || !tokenHashes.isEmpty }

        func accepts(token: String) -> Bool { tokenHashes.contains(WebCredentials.digest(token)) }

        /// The secret `?token=` of a feed or an enclosure: an HMAC of its path, so each address has its own.
        func feedToken(for path: String) -> String? {
            feedKey.map { key in HMAC<SHA256>.authenticationCode(for: Data(path.utf8), using: key).map { String(format: "%02x", $0) }.joined() }
        }

        /// The secret `?token=` of a live mount as a Subsonic app is given it: under a key of its own, made anew whenever
        /// an app password or a token goes (or the password changes), so what an app was given stops with its login.
        func appToken(for path: String) -> String? {
            appKey.map { key in HMAC<SHA256>.authenticationCode(for: Data(path.utf8), using: key).map { String(format: "%02x", $0) }.joined() }
        }

        /// A feed's token for any feed or enclosure; an app's only for a live mount.
        func acceptsFeedToken(_ token: String, for path: String) -> Bool {
            guard token.utf8.count == 64, let code = Secrets.bytes(hex: token) else { return false }
            let keys = [feedKey, path.hasPrefix("/live/") ? appKey : nil].compactMap { $0 }
            return keys.contains { HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data(path.utf8), using: $0) }
        }
    }

    public struct Token: Sendable, Equatable {
        public let name: String
        public let created: Date
    }

    private let database: OnairDatabase

    public init(database: OnairDatabase) throws(StoreError) {
        self.database = database
        try database.migrate { migrator in
            migrator.registerMigration("web-access-v1") { db in
                try db.create(table: "webSecret") { t in
                    t.primaryKey("name", .text)
                    t.column("value", .text).notNull()
                }
                try db.create(table: "webToken") { t in
                    t.primaryKey("name", .text)
                    t.column("hash", .text).notNull().unique()
                    t.column("createdAt", .datetime).notNull()
                }
            }
            migrator.registerMigration("web-sessions-v1") { db in
                try db.create(table: "webSession") { t in
                    t.primaryKey("keyHash", .text)
                    t.column("value", .blob).notNull()
                    t.column("expiresAt", .datetime)
                }
            }
        }
    }

    /// Stores the bcrypt hash of `password` (replacing the previous one). Takes a fraction of a second on purpose.
    public func setPassword(_ password: String) throws {
        guard !password.isEmpty else { throw WebCredentialsError("the password is empty: nothing was changed") }
        // bcrypt reads 72 bytes: past them, two passwords sharing a start would both be accepted.
        guard password.utf8.count <= 72 else {
            throw WebCredentialsError("the password is \(password.utf8.count) bytes long; bcrypt reads only 72: choose a shorter one (nothing was changed)")
        }
        let hash = Bcrypt.hash(password)
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO webSecret (name, value) VALUES ('password', ?)", arguments: [hash])
            try db.execute(sql: "DELETE FROM webSession")
            try Self.createFeedKey(db, replacing: true)
            try Self.replaceAppKey(db)
        }
    }

    /// A new key for the feeds' secret addresses: every address given out so far stops opening.
    public func rotateFeedKey() throws {
        try database.write { db in try Self.createFeedKey(db, replacing: true) }
    }

    /// Whether `password` is the web password. Blocking (bcrypt): never on the event loop.
    public func verifyPassword(_ password: String, against snapshot: Snapshot) -> Bool {
        guard let hash = snapshot.passwordHash else { return false }
        return Bcrypt.verify(password, hash: hash)
    }

    /// A new token named `name`, returned once; only its hash is kept.
    public func createToken(name: String) throws -> String {
        guard !name.isEmpty, name.count <= 100, !name.contains(where: \.isNewline) else {
            throw WebCredentialsError("invalid token name '\(name)': use a short name on one line")
        }
        let token = "onair_" + Self.randomHex()
        guard try database.read({ db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM webToken WHERE name = ?", arguments: [name]) }) == 0 else {
            throw WebCredentialsError("a token named '\(name)' exists: revoke it first, or choose another name")
        }
        try database.write { db in
            try db.execute(sql: "INSERT INTO webToken (name, hash, createdAt) VALUES (?, ?, ?)", arguments: [name, Self.digest(token), Date()])
            try Self.createFeedKey(db)
            try Self.replaceAppKey(db, replacing: false)
        }
        return token
    }

    public func tokens() throws -> [Token] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, createdAt FROM webToken ORDER BY createdAt, name").map { Token(name: $0["name"], created: $0["createdAt"]) }
        }
    }

    /// Removes the token named `name`; false when there is none.
    public func revokeToken(name: String) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM webToken WHERE name = ?", arguments: [name])
            let revoked = db.changesCount > 0
            try Self.replaceAppKey(db)
            return revoked
        }
    }

    // MARK: The app password

    /// A password for Subsonic apps, which may prove it with the MD5 of it and a salt (`t=`, `s=`): the server
    /// must read it back, so unlike the web password it cannot be kept as a hash. It is kept sealed
    /// (AES-GCM) with a key in its own file beside the database (mode 0600): a copy of the database alone, a
    /// backup or a dump, does not give it away. Returned once; a new one replaces the old.
    public func createAppPassword() throws -> String {
        guard try snapshot().isConfigured else {
            throw WebCredentialsError("set the web password first (onair web password): the app password is for apps, beside it")
        }
        // 20 characters of an alphabet without look-alikes: about 115 bits, and typeable on a phone.
        let alphabet = Array("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let password = String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        guard let sealed = try AES.GCM.seal(Data(password.utf8), using: try appPasswordKey(creating: true)).combined else {
            throw WebCredentialsError("the app password could not be sealed")
        }
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO webSecret (name, value) VALUES ('appPassword', ?)", arguments: [sealed.base64EncodedString()])
            try Self.replaceAppKey(db)
        }
        return password
    }

    /// False when there was none.
    public func removeAppPassword() throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM webSecret WHERE name = 'appPassword'")
            let removed = db.changesCount > 0
            try Self.replaceAppKey(db)
            return removed
        }
    }

    /// The app password, unsealed; nil when none is set. Blocking (SQLite, the key's file).
    public func appPassword() throws -> String? {
        guard let text = try database.read({ db in try String.fetchOne(db, sql: "SELECT value FROM webSecret WHERE name = 'appPassword'") }),
              let sealed = Data(base64Encoded: text) else { return nil }
        let key = try appPasswordKey(creating: false)
        do {
            return String(decoding: try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key), as: UTF8.self)
        } catch {
            throw WebCredentialsError("the app password cannot be read with the key in \(appPasswordKeyFile.path) (another's): "
                                      + "make a new one with `onair web app-password`")
        }
    }

    private var appPasswordKeyFile: URL {
        URL(fileURLWithPath: database.path).deletingLastPathComponent().appendingPathComponent("app-password.key")
    }

    /// The key the app password is sealed with: read from its file, which must be ours and readable by us alone; made
    /// (`creating`) when there is none, with the file created exclusively, never through a link, mode 0600 from the start.
    private func appPasswordKey(creating: Bool) throws -> SymmetricKey {
        let path = appPasswordKeyFile.path
        var descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT, creating {
            let made = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if made >= 0 {
                let key = SymmetricKey(size: .bits256)
                let written = key.withUnsafeBytes { write(made, $0.baseAddress, $0.count) }
                let synced = fsync(made)
                close(made)
                guard written == 32, synced == 0 else {
                    unlink(path)
                    throw WebCredentialsError("cannot write the app password's key file \(path)")
                }
                return key
            }
            // Another `onair web app-password` made it just now: read theirs.
            descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw WebCredentialsError("the app password's key file \(path) cannot be read (\(String(cString: strerror(errno)))): "
                                      + "make a new app password with `onair web app-password`")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
            throw WebCredentialsError("the app password's key file \(path) is not this user's alone: chmod 600 it, or remove it and make a new app password")
        }
        var bytes = [UInt8](repeating: 0, count: 33)
        guard read(descriptor, &bytes, 33) == 32 else { throw WebCredentialsError("the app password's key file \(path) is not a key") }
        return SymmetricKey(data: bytes.prefix(32))
    }

    /// The login session stored under `key` (its cookie's value), unless it has expired. Blocking (SQLite).
    func session(_ key: String, now: Date = Date()) throws -> Data? {
        try database.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM webSession WHERE keyHash = ? AND (expiresAt IS NULL OR expiresAt > ?)",
                              arguments: [Self.digest(key), now])
        }
    }

    /// Stores a login session under `key`; `expiresAt` nil keeps the one it had. False, storing nothing, when
    /// `onlyNew` and the key is taken. Expired sessions are dropped on the way. Blocking (SQLite).
    func storeSession(_ key: String, value: Data, expiresAt: Date?, onlyNew: Bool, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM webSession WHERE expiresAt <= ?", arguments: [now])
            let keyHash = Self.digest(key)
            let kept = try Row.fetchOne(db, sql: "SELECT expiresAt FROM webSession WHERE keyHash = ?", arguments: [keyHash])
            if onlyNew, kept != nil { return false }
            let expires: Date? = expiresAt ?? kept?["expiresAt"]
            try db.execute(sql: "INSERT OR REPLACE INTO webSession (keyHash, value, expiresAt) VALUES (?, ?, ?)", arguments: [keyHash, value, expires])
            return true
        }
    }

    /// Ends the login session stored under `key`. Blocking (SQLite).
    func endSession(_ key: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM webSession WHERE keyHash = ?", arguments: [Self.digest(key)]) }
    }

    /// The credentials as they are now. Blocking (SQLite): never on the event loop.
    public func snapshot() throws -> Snapshot {
        try database.read { db in
            let secrets = try Row.fetchAll(db, sql: "SELECT name, value FROM webSecret")
                .reduce(into: [String: String]()) { $0[$1["name"]] = $1["value"] }
            return Snapshot(passwordHash: secrets["password"], tokenHashes: Set(try String.fetchAll(db, sql: "SELECT hash FROM webToken")),
                            feedKey: secrets["feedKey"].flatMap { Data(base64Encoded: $0) }.map { SymmetricKey(data: $0) },
                            appKey: secrets["appKey"].flatMap { Data(base64Encoded: $0) }.map { SymmetricKey(data: $0) },
                            hasAppPassword: secrets["appPassword"] != nil)
        }
    }

    /// 256 random bits (the system's generator: getrandom), in hex.
    static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Makes the feeds' key: when there is none, or (`replacing`) in place of the one there is.
    /// A new key for the live addresses given to apps (every one given so far stops opening), or (not `replacing`) the
    /// first one.
    private static func replaceAppKey(_ db: Database, replacing: Bool = true) throws {
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        try db.execute(sql: "INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO webSecret (name, value) VALUES ('appKey', ?)", arguments: [key])
    }

    private static func createFeedKey(_ db: Database, replacing: Bool = false) throws {
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        try db.execute(sql: "INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO webSecret (name, value) VALUES ('feedKey', ?)", arguments: [key])
    }
}
