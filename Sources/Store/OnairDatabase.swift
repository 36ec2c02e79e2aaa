import Foundation
import GRDB

/// A database problem, told in one plain line.
public struct StoreError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// onair's embedded database: one SQLite file (`onair.sqlite` in the data directory) holding the
/// recordings index, the schedule and the player's favourites, history and positions.
///
/// Each module that keeps state registers its own migrations (identifiers prefixed with the module's
/// name) through `migrate`, so a module's tables are created the first time it opens the database.
/// Safe to use from any thread; GRDB serialises access, and a busy timeout lets a daemon and a
/// command write to the file at once.
public final class OnairDatabase: Sendable {
    public static let fileName = "onair.sqlite"
    public let path: String
    private let queue: DatabaseQueue

    /// Opens the database in `directory`, creating it (and the directory) if needed.
    public init(directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        self.path = path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError("cannot open the database \(path): \(error)")
        }
    }

    /// The SQL of a migration that counts every change to `table` (insert, update, delete, by any process) in
    /// `TABLE_revision`: a reader that saw a number reuses what it made of the table while the number stays.
    public static func revisionCounter(for table: String) -> String {
        """
        CREATE TABLE \(table)_revision (id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL);
        INSERT INTO \(table)_revision VALUES (1, 0);
        CREATE TRIGGER \(table)_inserted AFTER INSERT ON \(table) BEGIN UPDATE \(table)_revision SET revision = revision + 1; END;
        CREATE TRIGGER \(table)_updated AFTER UPDATE ON \(table) BEGIN UPDATE \(table)_revision SET revision = revision + 1; END;
        CREATE TRIGGER \(table)_deleted AFTER DELETE ON \(table) BEGIN UPDATE \(table)_revision SET revision = revision + 1; END;
        """
    }

    /// Applies the migrations `register` adds that have not been applied yet.
    public func migrate(_ register: (inout DatabaseMigrator) -> Void) throws(StoreError) {
        var migrator = DatabaseMigrator()
        register(&migrator)
        do {
            try migrator.migrate(queue)
        } catch {
            throw StoreError("cannot prepare the database \(path): \(error)")
        }
    }

    /// Runs `body` in a write transaction.
    public func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try queue.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("database \(path): \(error)")
        }
    }

    /// Runs `body` with a consistent view of the database.
    public func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try queue.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("database \(path): \(error)")
        }
    }
}
