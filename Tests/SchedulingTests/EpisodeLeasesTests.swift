import Foundation
import RadioModel
@testable import Scheduling
import SharedStore
import TestSupport
import XCTest

/// The leases several daemons share, on a real PostgreSQL 15: one daemon per station, claims that
/// never both win, `--max-streams`, takeover once a lease expires with a higher epoch, and the
/// fenced daemon told so.
final class EpisodeLeasesTests: XCTestCase {
    private var server: PostgresHarness!
    private var store: PostgresScheduleStore!

    override func setUpWithError() throws {
        do {
            server = try PostgresHarness.shared.get()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        try server.reset()
        store = try PostgresScheduleStore(database: try database())
    }

    private func database() throws -> SharedDatabase { try SharedDatabase(location: try PostgresLocation(url: server.url)) }

    /// A daemon named `name`; `host` as it tells (the test process plays every daemon, so a daemon on another
    /// host is one whose process is not taken for an earlier life of this one).
    private func leases(_ name: String, host: String = ProcessInfo.processInfo.hostName, maxStreams: Int = 10,
                        length: TimeInterval = 15) throws -> PostgresEpisodeLeases {
        try PostgresEpisodeLeases(database: try database(), identity: DaemonIdentity(name: name, host: host), maxStreams: maxStreams, length: length)
    }

    /// A due episode on `station`.
    private func episode(_ station: String) throws -> Episode {
        let rule = try store.add(ScheduleRule(station: station, timing: .weekly([BroadcastSlot(days: Weekday.allCases,
            start: ClockTime("12:00")!, duration: TimeSpan("1h")!)]), timeZone: "UTC", createdAt: Date()))
        let start = Date().addingTimeInterval(-60)
        return try store.episode(of: rule, Occurrence(start: start, end: start.addingTimeInterval(3600), padBefore: 0, padAfter: 0))
    }

    func testAStationsEpisodesGoToOneDaemonAndClaimsNeverBothWin() throws {
        let a = try leases("a"), b = try leases("b")
        let news = try episode("news"), newsAgain = try episode("news")
        // Both claim the same episode at once: exactly one wins.
        let results = Locked<[StationLease?]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { turn in
            let claimed = try? (turn == 0 ? a : b).claim(news)
            results.withLock { $0.append(claimed ?? nil) }
        }
        XCTAssertEqual(results.current.compactMap { $0 }.count, 1, "\(results.current)")
        let (winner, loser) = try a.holds(StationLease(station: "news", epoch: 1)) ? (a, b) : (b, a)
        XCTAssertNil(try loser.claim(newsAgain), "the station's other episode goes to the daemon that has it")
        XCTAssertEqual(try winner.claim(newsAgain), StationLease(station: "news", epoch: 1))
    }

    func testMaxStreamsLimitsTheStationsADaemonTakes() throws {
        let a = try leases("a", maxStreams: 1)
        XCTAssertNotNil(try a.claim(try episode("one")))
        XCTAssertNil(try a.claim(try episode("two")), "full at --max-streams 1")
        XCTAssertNotNil(try leases("b").claim(try episode("two")))
    }

    /// Episodes due at once are claimed in one transaction: three daemons claiming 60 at the same moment share them
    /// out, each episode and each station to one daemon, none past a daemon's --max-streams.
    func testOneClaimTakesManyEpisodesUpToMaxStreamsAndDaemonsClaimingAtOnceShareThemOut() throws {
        let due = try (0..<30).flatMap { index in [try episode("station-\(index)"), try episode("station-\(index)")] }
        let daemons = try ["a", "b", "c"].map { try leases($0, maxStreams: 12) }
        let results = Locked<[Int: [Int64: StationLease]]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { turn in
            let claimed = (try? daemons[turn].claim(due)) ?? [:]
            results.withLock { $0[turn] = claimed }
        }
        let claims = results.current
        let stationsOf = { (turn: Int) in Set(claims[turn, default: [:]].values.map(\.station)) }
        for turn in 0..<3 {
            XCTAssertLessThanOrEqual(stationsOf(turn).count, 12, "daemon \(turn) within --max-streams: \(stationsOf(turn).count)")
        }
        XCTAssertTrue(stationsOf(0).isDisjoint(with: stationsOf(1)) && stationsOf(0).isDisjoint(with: stationsOf(2))
                      && stationsOf(1).isDisjoint(with: stationsOf(2)), "no station on two daemons")
        let claimedIDs = claims.values.flatMap(\.keys)
        XCTAssertEqual(claimedIDs.count, Set(claimedIDs).count, "no episode to two daemons")
        // What one round left (daemons claiming at the same moment skip each other's locked rows) the next takes.
        for (turn, daemon) in daemons.enumerated() {
            let more = try daemon.claim(due.filter { !claimedIDs.contains($0.id!) })
            results.withLock { $0[turn, default: [:]].merge(more) { first, _ in first } }
        }
        let all = results.current.values.flatMap(\.keys)
        XCTAssertEqual(Set(all).count, 60, "every episode claimed once the three daemons have looked twice")
        XCTAssertEqual(results.current.values.map { Set($0.values.map(\.station)).count }.reduce(0, +), 30, "each station by one daemon")
        // Room is counted in stations: a station's second episode takes none, a new station past it is left.
        let small = try leases("d", maxStreams: 1)
        let (first, second, other) = (try episode("own"), try episode("own"), try episode("other"))
        XCTAssertEqual(Set(try small.claim([first, other, second]).keys), [first.id!, second.id!])
    }

    /// A runtime job holds its station's lease as an episode does: one daemon of the cluster has the station open.
    func testAJobsStationIsHeldLikeAnEpisodesAndItsEpisodesGoToTheDaemonRunningTheJob() throws {
        let a = try leases("a"), b = try leases("b")
        guard case .claimed(let lease) = try a.claimStation("news") else { return XCTFail("a free station is claimed") }
        XCTAssertEqual(try a.claimStation("news"), .claimed(lease), "its own again, same epoch")
        guard case .heldBy(let holder) = try b.claimStation("news") else { return XCTFail("a live lease is a's") }
        XCTAssertEqual(holder.name, "a")
        let news = try episode("news")
        XCTAssertNil(try b.claim(news), "b leaves the episode of a station a's job holds")
        XCTAssertEqual(try a.claim(news), lease, "a records it over the job's connection")
    }

    func testAnExpiredLeaseIsTakenOverWithAHigherEpochAndTheOldHolderIsFenced() throws {
        let a = try leases("a", length: 1), b = try leases("b", length: 1)
        var news = try episode("news")
        let held = try XCTUnwrap(try a.claim(news))
        news.status = .recording
        try store.update(news)
        XCTAssertTrue(try a.renew([held]).isEmpty, "renewed while alive")
        XCTAssertTrue(try b.orphaned().isEmpty, "a live lease is nobody's to take")
        Thread.sleep(forTimeInterval: 1.3)
        XCTAssertEqual(try b.orphaned().map { $0.episode.id }, [news.id], "the silent daemon's episode is up for takeover")
        let taken = try XCTUnwrap(try b.claim(news))
        XCTAssertEqual(taken.epoch, held.epoch + 1)
        XCTAssertFalse(try a.holds(held), "fenced")
        XCTAssertEqual(try a.renew([held]), [held], "the old holder learns it lost the station")
        XCTAssertTrue(try b.holds(taken))
    }

    func testADaemonRestartedUnderItsNameTakesItsOwnEpisodeBackWithoutWaitingForItsLease() throws {
        var news = try episode("news")
        let held = try XCTUnwrap(try leases("a").claim(news))
        news.status = .recording
        try store.update(news)
        // Killed and started again at once: its lease (15 s) is still live.
        let restarted = try leases("a")
        XCTAssertEqual(try restarted.orphaned().map { $0.episode.id }, [news.id], "its own episode, from before the restart")
        XCTAssertEqual(try restarted.orphaned().first?.wasOwn, true)
        XCTAssertTrue(try leases("b").orphaned().isEmpty, "another daemon waits for the lease to run out")
        XCTAssertTrue(try leases("a", host: "another-box").orphaned().isEmpty, "and so does a namesake on another host")
        XCTAssertEqual(try restarted.claim(news), StationLease(station: "news", epoch: held.epoch + 1),
                       "the station passes to the new process: its earlier life, were it still running, is fenced")
    }

    func testTwoDaemonsGivenOneNameNeverBothHoldAStationAndTheSecondIsWarned() throws {
        let first = try leases("box", host: "box-1")
        let second = try leases("box", host: "box-2")
        XCTAssertNotEqual(first.daemon, second.daemon, "one identity per process")
        XCTAssertTrue(first.namesakes.isEmpty)
        XCTAssertEqual(second.namesakes.count, 1, "the warning names the live namesake")
        XCTAssertTrue(second.namesakes.first?.contains(first.daemon) == true, "\(second.namesakes)")
        XCTAssertTrue(second.predecessors.isEmpty, "a live daemon on another host is nobody's earlier life")

        var news = try episode("news")
        let held = try XCTUnwrap(try first.claim(news))
        XCTAssertNil(try second.claim(try episode("news")), "the station is the first's: one connection to it, not two")
        news.status = .recording
        try store.update(news)
        XCTAssertTrue(try second.orphaned().isEmpty, "the first's episode is not the second's to resume")
        XCTAssertTrue(try first.holds(held))

        let cluster = try PostgresEpisodeLeases.cluster(in: try database())
        XCTAssertEqual(Set(cluster.daemons.map(\.instance)), [first.identity.instance, second.identity.instance])
        XCTAssertEqual(Set(cluster.daemons.map(\.host)), ["box-1", "box-2"])
        XCTAssertEqual(cluster.leases.map { "\($0.daemon) \($0.instance)" }, ["box \(first.identity.instance)"])
    }
}
