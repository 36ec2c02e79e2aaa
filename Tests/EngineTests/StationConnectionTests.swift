import Engine
import Foundation
import Media
import RadioModel
import StreamInput
import TestSupport
import XCTest

/// One route for events: whatever is attached to a station hears its connection's and its
/// decoder's events alike, with nobody wiring a callback.
final class StationConnectionTests: XCTestCase {
    func testEveryConsumerHearsTheSourcesAndThePipelinesEventsInTheSameOrder() throws {
        let icecast = try IcecastHarness.playing("/events.mp3", title: "First title")
        defer { icecast.stop() }
        let connection = try StationConnection(target: .url(icecast.url(mount: "/events.mp3").absoluteString),
                                               options: LiveStreamOptions(), format: .snapcastDefault)
        let heard = [Locked<[String]>([]), Locked<[String]>([])]
        for log in heard {
            connection.attach(EventTap(label: "log") { event in
                let name: String
                switch event {
                case .connected: name = "connected"
                case .metadata(let change): name = "title \(change.title)"
                default: return
                }
                log.withLock { $0.append(name) }
            })
        }
        connection.start()
        XCTAssertTrue(eventually(timeout: 10) { heard[1].current.contains("title First title") }, "\(heard[1].current)")
        try icecast.setTitle(mount: "/events.mp3", "Second title")
        XCTAssertTrue(eventually(timeout: 10) { heard[1].current.contains("title Second title") }, "\(heard[1].current)")
        connection.stop()
        connection.waitUntilFinished()
        // The connection is the network thread's event; titles are placed in the audio by the decode thread.
        XCTAssertEqual(heard[0].current, ["connected", "title First title", "title Second title"])
        XCTAssertEqual(heard[0].current, heard[1].current, "both consumers hear the same events in the same order")
    }
}
