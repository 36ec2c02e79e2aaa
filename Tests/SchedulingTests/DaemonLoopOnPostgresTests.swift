import Foundation
import Recording
import Scheduling
import SharedStore
import TestSupport
import XCTest

/// `DaemonLoopTests` on the PostgreSQL schedule and index, on a real PostgreSQL 15 server (one for
/// the test process; each test starts from an empty database).
final class DaemonLoopOnPostgresTests: DaemonLoopTests {
    private var location: PostgresLocation!

    override func setUpWithError() throws {
        let server: PostgresHarness
        do {
            server = try PostgresHarness.shared.get()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        try server.reset()
        location = try PostgresLocation(url: server.url)
        try super.setUpWithError()
    }

    override func openStores() throws -> (any ScheduleStorage, any RecordingsIndexing) {
        let database = try SharedDatabase(location: location)
        return (try PostgresScheduleStore(database: database), try PostgresRecordingsIndex(database: database))
    }

    override func openAnotherConnection() throws -> any ScheduleStorage {
        try PostgresScheduleStore(database: try SharedDatabase(location: location))
    }

    // Linux's XCTest finds only the tests a class declares itself.
    override func testEpisodesMissedWhileNotRunningAreNotedWithTheReason() throws { try super.testEpisodesMissedWhileNotRunningAreNotedWithTheReason() }
    override func testAWallClockJumpStartsTheDueEpisodeAtOnce() throws { try super.testAWallClockJumpStartsTheDueEpisodeAtOnce() }
    override func testARuleAddedWhileRunningIsPickedUpAndAPausedOneIsNot() throws { try super.testARuleAddedWhileRunningIsPickedUpAndAPausedOneIsNot() }
    override func testRetentionKeepsTheNewestEpisodesAndDeletesOlderFilesAndIndexEntries() throws {
        try super.testRetentionKeepsTheNewestEpisodesAndDeletesOlderFilesAndIndexEntries()
    }
    override func testKeepDaysDeletesWhatFinishedLongerAgoByFinishTimeAndSparesKeptRecordings() throws {
        try super.testKeepDaysDeletesWhatFinishedLongerAgoByFinishTimeAndSparesKeptRecordings()
    }
    override func testMinimumFreeSpaceDeletesTheOldestFinishedUntilEnoughIsFree() throws {
        try super.testMinimumFreeSpaceDeletesTheOldestFinishedUntilEnoughIsFree()
    }
}
