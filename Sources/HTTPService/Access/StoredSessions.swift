import Foundation
import Hummingbird
import NIOPosix

/// hummingbird-auth's session storage kept in onair's database (`WebCredentials`) instead of memory, so a
/// restarted daemon keeps its logins and `onair web password`, run on the box, ends them all. SQLite is
/// blocking: every call runs on NIO's thread pool, never on the event loop or Swift's cooperative pool.
struct StoredSessions: PersistDriver {
    let credentials: WebCredentials

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        guard try await store(key, value, expires, onlyNew: true) else { throw PersistError.duplicate }
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        _ = try await store(key, value, expires, onlyNew: false)
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        let credentials = self.credentials
        guard let data = try await NIOThreadPool.singleton.runIfActive({ try credentials.session(key) }) else { return nil }
        return try JSONDecoder().decode(type, from: data)
    }

    func remove(key: String) async throws {
        let credentials = self.credentials
        try await NIOThreadPool.singleton.runIfActive { try credentials.endSession(key) }
    }

    private func store(_ key: String, _ value: some Codable & Sendable, _ expires: Duration?, onlyNew: Bool) async throws -> Bool {
        let (credentials, data) = (self.credentials, try JSONEncoder().encode(value))
        let expiresAt = expires.map { Date().addingTimeInterval(TimeInterval($0.components.seconds)) }
        return try await NIOThreadPool.singleton.runIfActive {
            try credentials.storeSession(key, value: data, expiresAt: expiresAt, onlyNew: onlyNew)
        }
    }
}
