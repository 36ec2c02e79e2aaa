import ClipDetection
import Foundation
import RadioModel
import SharedStore
import TestSupport
import XCTest

/// The clips and airings in the PostgreSQL database daemons share: a clip one daemon adds, every other sees move the
/// revision it watches and lists; names stay unique across them; the airings of all are read back filtered.
final class SharedClipsTests: XCTestCase {
    private var server: PostgresHarness!

    override func setUpWithError() throws {
        do {
            server = try PostgresHarness.shared.get()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        try server.reset()
    }

    /// One daemon's view: a connection of its own.
    private func daemon() throws -> ClipStores {
        try ClipStores(shared: try SharedDatabase(location: try PostgresLocation(url: server.url)))
    }

    func testAClipAddedByOneDaemonIsSeenByAnotherAndNamesStayUniqueAcrossThem() throws {
        let (first, second) = (try daemon(), try daemon())
        let before = try second.library.revision()
        let fingerprint = Fingerprint(items: (0..<200).map { UInt32($0) &* 2_654_435_761 })
        let added = try first.library.add(name: "Summer sale", kind: .ad, seconds: 15, fingerprint: fingerprint)
        XCTAssertNotEqual(try second.library.revision(), before, "the other daemon sees the library move")
        let seen = try second.library.all()
        XCTAssertEqual(seen.map(\.name), ["Summer sale"])
        XCTAssertEqual(seen.first?.fingerprint, fingerprint, "the fingerprint comes back as it went in")
        XCTAssertEqual(seen.first?.kind, .ad)
        XCTAssertThrowsError(try second.library.add(name: "Summer sale", kind: .song, seconds: 9, fingerprint: fingerprint)) { error in
            XCTAssertEqual((error as? ClipError)?.reason, .nameTaken)
        }
        XCTAssertNil(try second.library.remove("no such clip"))
        XCTAssertEqual(try second.library.remove(id: added.id)?.name, "Summer sale")
        XCTAssertEqual(try first.library.all(), [])
        XCTAssertNil(try first.library.remove("Summer\0sale"), "a NUL matches nothing and fails nothing")
    }

    func testTheAiringsOfEveryDaemonAreReadBackFilteredNewestLimitOldestFirst() throws {
        let (first, second) = (try daemon(), try daemon())
        let start = try XCTUnwrap(Timestamp.parse("2026-07-01T11:00:05.250Z"))
        for (index, (stores, clip, kind, station)) in [(first, "Summer sale", "ad", "fip"), (second, "Jingle", "jingle", "fip"),
                                                         (second, "Summer sale", "ad", "http://127.0.0.1:9/x.mp3")].enumerated() {
            let at = start.addingTimeInterval(Double(index) * 60)
            try stores.airings.add(ClipSighting(clip: clip, kind: kind, station: station, start: at, end: at.addingTimeInterval(15),
                                                mediaTime: 12.5, offset: 1.5, score: 0.9, partial: true))
        }
        let all = try first.airings.airings()
        XCTAssertEqual(all.map(\.clip), ["Summer sale", "Jingle", "Summer sale"])
        XCTAssertEqual(all.first?.start, start, "to the millisecond")
        XCTAssertEqual(all.first?.offset, 1.5)
        XCTAssertEqual(all.first?.partial, true)
        XCTAssertEqual(try first.airings.airings(kind: "ad").map(\.station), ["fip", "http://127.0.0.1:9/x.mp3"])
        XCTAssertEqual(try first.airings.airings(station: "fip", since: start.addingTimeInterval(30)).map(\.clip), ["Jingle"])
        XCTAssertEqual(try first.airings.airings(until: start.addingTimeInterval(60)).map(\.clip), ["Summer sale"], "before the second")
        XCTAssertEqual(try first.airings.airings(clip: nil, kind: nil, station: nil, since: nil, limit: 2).map(\.clip), ["Jingle", "Summer sale"],
                       "the newest two, oldest first")
        XCTAssertEqual(try first.airings.airings(clip: "Summer\0sale"), [])
    }
}
