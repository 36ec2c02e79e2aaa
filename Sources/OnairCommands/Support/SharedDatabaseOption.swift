import ClipDetection
import ArgumentParser
import Foundation
import Recording
import Scheduling
import SharedStore
import Store

/// `--database URL`, or `ONAIR_DATABASE_URL`: the PostgreSQL database several daemons share, for the
/// commands that read or change the schedule and the recordings. Without it, the data directory's
/// SQLite file, as on one box.
struct SharedDatabaseOption: ParsableArguments {
    @Option(name: .customLong("database"),
            help: ArgumentHelp("The PostgreSQL database daemons share (postgresql://USER@HOST:PORT/DB); default $ONAIR_DATABASE_URL, else the data directory's own file.",
                               valueName: "url"))
    var url: String?

    /// The shared database's location, if one is given.
    func location() throws -> PostgresLocation? {
        guard let text = url ?? ProcessInfo.processInfo.environment["ONAIR_DATABASE_URL"], !text.isEmpty else { return nil }
        do {
            return try PostgresLocation(url: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Connects to the shared database, if one is given.
    func open() throws -> SharedDatabase? {
        guard let location = try location() else { return nil }
        do {
            return try SharedDatabase(location: location)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// The schedule: shared, or the data directory's.
    func scheduleStore() throws -> any ScheduleStorage {
        do {
            if let shared = try open() { return try PostgresScheduleStore(database: shared) }
            return try ScheduleStore(database: try OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch let error as ScheduleError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        } catch let error as StoreError {
            throw CommandFailure(message: "schedule: \(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// The clip library and the airings heard: shared, or the data directory's.
    func clipStores() throws -> ClipStores {
        do {
            if let shared = try open() { return try ClipStores(shared: shared) }
            return try ClipStores(dataDirectory: CatalogueAccess.paths.data)
        } catch let error as ClipError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// The recordings index: shared, or the data directory's.
    func recordingsIndex() throws -> any RecordingsIndexing {
        do {
            if let shared = try open() { return try PostgresRecordingsIndex(database: shared) }
            return try RecordingsIndex(directory: CatalogueAccess.paths.data)
        } catch let error as RecordingError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }
}
