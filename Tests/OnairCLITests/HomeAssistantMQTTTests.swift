import Foundation
import XCTest
import TestSupport

/// `onair daemon --mqtt` with Debian's mosquitto (accounts and an ACL) and `mosquitto_sub`/`mosquitto_pub` in Home
/// Assistant's place: discovery within 5 s, a title on the sensor within a second of the station sending it, the
/// switches starting and stopping a recording and a relay to a declared sink, a malformed command refused in one line,
/// everything back after the broker restarts, and `offline` once the daemon is killed.
final class HomeAssistantMQTTTests: XCTestCase {
    private let node = "test_box"

    func testHomeAssistantSeesTheDaemonDrivesItsSwitchesAndKnowsWhenItIsGone() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let onair = try OnairBinary()
        // A catalogue station sending a title at once and another 4 s of audio later, paced as it plays.
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 30)], codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, schedule: [.title("One - First", atAudioByte: 0), .title("Two - Second", atAudioByte: 4 * 16_000)])
        let requested = FirstRequest()
        let stream = FixtureHTTPServer.icyStream(writer, bytesPerSecond: 16_000)
        let station = try FixtureHTTPServer(routes: ["/tones.mp3": { request, connection in
            requested.note()
            try stream(request, connection)
        }])
        defer { station.stop() }
        let catalogue = onair.home.file("stations.json")
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tone Radio", "country": "GB", "language": "en", "timeZone": "Europe/London", "tags": [],
         "streams": [{"url": "\(station.url("/tones.mp3").absoluteString)", "kind": "icy", "codec": "mp3", "bitrate": 128}]}]}
        """.utf8).write(to: catalogue)
        let environment = ["ONAIR_STATIONS": catalogue.path]
        let favourite = try onair.run(["favourites", "add", "tones"], extraEnvironment: environment)
        XCTAssertTrue(favourite.succeeded, favourite.stderrText)
        let kitchen = onair.home.file("kitchen.wav")
        XCTAssertTrue(try onair.run(["sinks", "add", "kitchen", "wav:\(kitchen.path)"], extraEnvironment: environment).succeeded)

        // A command said earlier and kept by the broker is replayed to the daemon when it subscribes: never acted on.
        try broker.publish("onair/\(node)/station/tones/record/set", "ON", retain: true)
        var subscriber = try broker.subscribe(["homeassistant/#", "onair/#"])
        defer { subscriber.stop() }
        let started = Date()
        let http = try FreePort.pick()
        let daemon = try onair.start(["daemon", "--http", "127.0.0.1:\(http)", "--name", "Test Box"],
                                     extraEnvironment: environment.merging(["ONAIR_MQTT_URL": "mqtt://onair:daemon-secret@127.0.0.1:\(broker.port)"]) { $1 })
        defer { daemon.stop() }
        func messages() -> [BrokerMessage] { BrokerMessage.read(subscriber.stdoutText) }
        func latest(_ topic: String) -> BrokerMessage? { messages().last { $0.topic == topic } }
        func waitFor(_ topic: String, _ payload: String, timeout: TimeInterval = 10) -> BrokerMessage? {
            _ = eventually(timeout: timeout) { latest(topic)?.payload == payload }
            return latest(topic).flatMap { $0.payload == payload ? $0 : nil }
        }

        // Discovery: retained configurations for the favourite's entities and the daemon's, within 5 s.
        let titleConfig = "homeassistant/sensor/\(node)/tones_title/config"
        XCTAssertTrue(eventually(timeout: 10) { latest(titleConfig) != nil }, "\(messages().map(\.topic)) \(daemon.stderrText)")
        XCTAssertLessThan(try XCTUnwrap(latest(titleConfig)).at.timeIntervalSince(started), 5, "discovery within 5 s of the start")
        let config = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(latest(titleConfig)).payload.utf8)) as? [String: Any])
        XCTAssertEqual(config["state_topic"] as? String, "onair/\(node)/station/tones/title")
        XCTAssertEqual(config["availability_topic"] as? String, "onair/\(node)/availability")
        XCTAssertEqual(config["name"] as? String, "Tone Radio title")
        XCTAssertEqual((config["device"] as? [String: Any])?["identifiers"] as? [String], ["onair_\(node)"])
        for object in ["switch/\(node)/tones_record", "sensor/\(node)/tones_listeners", "switch/\(node)/tones_relay_kitchen", "binary_sensor/\(node)/tones_dead_air",
                       "sensor/\(node)/tones_state", "sensor/\(node)/recordings", "sensor/\(node)/next_episode", "sensor/\(node)/disk_free"] {
            XCTAssertNotNil(latest("homeassistant/\(object)/config"), object)
        }
        XCTAssertNotNil(waitFor("onair/\(node)/availability", "online"))
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/state", "idle"))
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/record", "OFF"))
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/listeners", "0"))
        XCTAssertGreaterThan(Int(latest("onair/\(node)/disk_free")?.payload ?? "") ?? 0, 0)

        // A malformed command is one line and nothing else; a command on another's station is refused the same way.
        try broker.publish("onair/\(node)/station/tones/record/set", "MAYBE")
        try broker.publish("onair/\(node)/station/nowhere/record/set", "ON")
        XCTAssertTrue(eventually(timeout: 5) { daemon.stderrText.contains("no such station") }, daemon.stderrText)
        let refusals = daemon.stderrText.split(separator: "\n").filter { $0.hasPrefix("mqtt: ") }
        XCTAssertEqual(refusals.count, 3, daemon.stderrText)
        XCTAssertTrue(refusals.first?.contains("ignored a retained message") ?? false, daemon.stderrText)
        XCTAssertTrue(refusals.dropFirst().first?.contains("its payload is not ON or OFF") ?? false, daemon.stderrText)
        XCTAssertNil(messages().first { $0.topic == "onair/\(node)/station/tones/record" && $0.payload == "ON" }, "nothing started")

        // The record switch records the station; its titles reach the title sensor within a second of being sent.
        try broker.publish("onair/\(node)/station/tones/record/set", "ON")
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/record", "ON"), daemon.stderrText)
        XCTAssertNotNil(waitFor("onair/\(node)/recordings", "1"))
        let second = try XCTUnwrap(waitFor("onair/\(node)/station/tones/title", "Two - Second", timeout: 15), "\(messages().map(\.topic))")
        let sent = try XCTUnwrap(requested.at).addingTimeInterval(4)
        XCTAssertLessThan(second.at.timeIntervalSince(sent), 1, "the title on the sensor within 1 s of the station sending it")
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/state", "playing"))

        // A listener of the station's live mount is counted as it comes and as it goes.
        let listener = try ProcessRunner.start("curl", ["-s", "-o", "/dev/null", "http://127.0.0.1:\(http)/live/tones"])
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/listeners", "1"), daemon.stderrText)
        listener.stop()
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/listeners", "0"), daemon.stderrText)

        // The relay switch relays to the declared sink, and off again.
        try broker.publish("onair/\(node)/station/tones/relay/kitchen/set", "ON")
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/relay/kitchen", "ON"), daemon.stderrText)
        XCTAssertTrue(eventually(timeout: 10) { ((try? FileManager.default.attributesOfItem(atPath: kitchen.path)[.size] as? Int) ?? 0) > 48_000 },
                      "audio reaches the kitchen")
        try broker.publish("onair/\(node)/station/tones/relay/kitchen/set", "OFF")
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/relay/kitchen", "OFF"), daemon.stderrText)

        // The broker crashes and comes back empty: the daemon connects again by itself and says it all again, the
        // recording it was making still on.
        try broker.restart()
        subscriber.stop()
        subscriber = try broker.subscribe(["homeassistant/#", "onair/#"])
        XCTAssertTrue(eventually(timeout: 15) { latest(titleConfig) != nil }, daemon.stderrText)
        XCTAssertNotNil(waitFor("onair/\(node)/availability", "online"))
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/record", "ON"), "the recording went on")
        XCTAssertTrue(daemon.stderrText.contains("lost the connection to mqtt://onair:***@127.0.0.1:\(broker.port)"), daemon.stderrText)
        XCTAssertFalse((daemon.stderrText + daemon.stderrText).contains("daemon-secret"), "the password is never shown")

        try broker.publish("onair/\(node)/station/tones/record/set", "OFF")
        XCTAssertNotNil(waitFor("onair/\(node)/station/tones/record", "OFF"), daemon.stderrText)
        XCTAssertNotNil(waitFor("onair/\(node)/recordings", "0"))

        // Killed: the broker publishes the daemon's last will.
        kill(daemon.pid, SIGKILL)
        XCTAssertNotNil(waitFor("onair/\(node)/availability", "offline", timeout: 5), "\(messages().suffix(5))")
    }
}

/// When the station was first asked for: its second title goes out 4 s of paced audio later. `lock` guards `first`.
private final class FirstRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Date?

    func note() { lock.withLock { first = first ?? Date() } }
    var at: Date? { lock.withLock { first } }
}
