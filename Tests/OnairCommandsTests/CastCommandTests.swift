@testable import Casting
import Daemon
import Engine
import Foundation
import HTTPService
import RadioModel
import SharedStore
import StreamInput
import TestSupport
import XCTest

/// `onair cast` against a real UPnP renderer: Debian's gmediarender (GStreamer), its audio written to
/// a raw PCM file, fed by the daemon's live mount of an Icecast station playing a 440 Hz tone.
final class CastCommandTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "onair-cast")
        setenv("ONAIR_HOME", home.url.path, 1)
        // `record`, `cast ID` and the daemon's index in PostgreSQL with ONAIR_TEST_DATABASE=postgresql.
        if let postgres = try TestDatabase.postgresURL() { setenv("ONAIR_DATABASE_URL", postgres, 1) }
    }

    override func tearDown() {
        unsetenv("ONAIR_HOME")
        unsetenv("ONAIR_DATABASE_URL")
        unsetenv("ONAIR_STATIONS")
        home.remove()
        home = nil
    }

    func testAStationAndARecordingCastToGmediarenderPlayTheirToneAtTheVolumeAsked() throws {
        guard ProcessRunner.which("gmediarender") != nil else {
            throw XCTSkip("gmediarender is not installed: install it with scripts/setup")
        }
        // libupnp will not serve on loopback, and this machine's network is not the test's: the test runs again
        // in a network namespace of its own, where the renderer advertises itself on the namespace's interface.
        guard let interface = PrivateNetwork.interface else {
            let inside = try PrivateNetwork.run(test: "OnairCommandsTests.CastCommandTests/" + #function.replacingOccurrences(of: "()", with: ""))
            XCTAssertTrue(PrivateNetwork.passed(inside), PrivateNetwork.failures(of: inside))
            return
        }
        let icecast = try IcecastHarness.playing("/tone.mp3", title: "Cast tone")
        defer { icecast.stop() }
        let catalogue = home.file("stations.json")
        let logo = "http://127.0.0.1:9/tone.png?size=600&format=png"
        let station = Station(id: "tone", name: "Tone & <Co> FM", logo: logo, country: "GB", language: "en", timeZone: "UTC",
                              streams: [StreamEndpoint(url: icecast.url(mount: "/tone.mp3").absoluteString, kind: .icy, codec: "mp3")])
        let stationJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(station))
        try JSONSerialization.data(withJSONObject: ["version": 1, "stations": [stationJSON]]).write(to: catalogue)
        setenv("ONAIR_STATIONS", catalogue.path, 1)

        let paths = AppPaths(environment: ["ONAIR_HOME": home.url.path])
        let stations: @Sendable () throws -> Catalogue = { try Catalogue.load(shippedURL: catalogue, userURL: paths.userCatalogueURL) }
        var options = DaemonService.Options()
        options.sharedDatabase = try ProcessInfo.processInfo.environment["ONAIR_DATABASE_URL"].map { try PostgresLocation(url: $0) }
        let daemon = try DaemonService(paths: paths, options: options, lookup: { try StreamTarget.parse($0, catalogue: stations) }, log: { _ in })
        let server = HTTPServer(address: HTTPAddress(host: "127.0.0.1", port: 0), facade: DaemonFacade(service: daemon, catalogue: stations))
        let port = try server.start()
        let runner = Thread { try? daemon.run() }
        runner.start()
        defer {
            server.stop()
            daemon.stop()
            _ = eventually(timeout: 20) { runner.isFinished }
        }

        let name = "onair test \(UUID().uuidString.prefix(8))"
        let output = home.file("renderer.pcm")
        // Each Play builds the renderer's pipeline anew: `append` keeps what the earlier casts played.
        let renderer = try ProcessRunner.start("gmediarender", [
            "-I", interface, "-f", name, "-u", UUID().uuidString.lowercased(), "--logfile", home.file("gmediarender.log").path,
            "--gstout-buffer-duration", "0",
            "--gstout-audiopipe", "audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=48000,channels=2 ! filesink append=true location=\(output.path)",
        ])
        defer { renderer.stop(grace: 1) }

        var listed = ""
        XCTAssertTrue(eventually(timeout: 10) {
            listed = (try? runOnair(["cast", "--list", "--wait", "1"]))?.output.standardOutput ?? ""
            return listed.contains(name)
        }, "--list finds the renderer by its friendly name: \(listed)")
        let row = try XCTUnwrap(listed.split(separator: "\n").first { $0.contains(name) })
        XCTAssertTrue(row.contains("gmediarender"), "with its model: \(row)")
        XCTAssertTrue(row.contains("http://"), "and its location: \(row)")

        let nowhere = try FreePort.pick()
        let noDaemon = try runOnair(["cast", "tone", "--to", "upnp:\(name)", "--server", "127.0.0.1:\(nowhere)", "--wait", "1"])
        XCTAssertEqual(noDaemon.status, 1)
        XCTAssertTrue(noDaemon.output.standardError.hasPrefix("onair: no onair daemon answers at http://127.0.0.1:\(nowhere) "),
                      noDaemon.output.standardError)

        let cast = try runOnair(["cast", "tone", "--to", "upnp:\(name)", "--server", "127.0.0.1:\(port)", "--wait", "1"])
        XCTAssertEqual(cast.status, 0, cast.output.standardError)
        XCTAssertTrue(cast.output.standardOutput.contains("Casting Tone & <Co> FM to \(name) (http://127.0.0.1:\(port)/live/tone)"),
                      cast.output.standardOutput)

        let bytesPerSecond = 48_000 * 2 * 2
        func played() -> Int { (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0 }
        /// What the renderer played from `byte` on; nil when it has not played that far.
        func audio(from byte: Int) throws -> PCMAudio? {
            let data = try Data(contentsOf: output)
            let start = byte - byte % 4, end = data.count - data.count % 4
            guard start < end else { return nil }
            return try PCMAudio(raw: data.subdata(in: start..<end), format: .s16le, sampleRate: 48_000, channels: 2)
        }
        XCTAssertTrue(eventually(timeout: 20) { played() > 3 * bytesPerSecond }, "the renderer plays the station")
        let full = try XCTUnwrap(try audio(from: played() - 2 * bytesPerSecond))
        XCTAssertEqual(try XCTUnwrap(full.dominantFrequency()), 440, accuracy: 5, "the station's tone reaches the renderer's output")

        let quieter = try runOnair(["cast", "--volume", "50", "--to", "upnp:\(name)", "--wait", "1"])
        XCTAssertEqual(quieter.status, 0, quieter.output.standardError)
        // Half a second for what the renderer had already turned up to be written out.
        let turnedDown = played() + bytesPerSecond / 2
        XCTAssertTrue(eventually(timeout: 20) { played() > turnedDown + 2 * bytesPerSecond }, "the renderer plays on")
        let down = try XCTUnwrap(try audio(from: turnedDown))
        XCTAssertEqual(try XCTUnwrap(down.dominantFrequency()), 440, accuracy: 5)
        XCTAssertLessThan(down.rmsDBFS(), full.rmsDBFS() - 10, "--volume 50 turns the renderer down")
        XCTAssertGreaterThan(down.rmsDBFS(), -70, "but not to silence")

        let control = RendererControl(try MediaRenderer.describe(try XCTUnwrap(URL(string: String(row.split(separator: " ").last!)))))
        XCTAssertEqual(try control.transportState(), "PLAYING")
        let metadata = try SOAPAction("AVTransport", "GetMediaInfo", [("InstanceID", "0")])
            .send(to: control.renderer.avTransport, renderer: name)["CurrentURIMetaData"] ?? ""
        XCTAssertTrue(metadata.contains("<upnp:albumArtURI>http://127.0.0.1:9/tone.png?size=600&amp;format=png</upnp:albumArtURI>"),
                      "the renderer has the station's logo: \(metadata)")
        XCTAssertEqual(try control.volume(), 50)

        let stop = try runOnair(["cast", "--stop", "--to", "upnp:\(name)", "--wait", "1"])
        XCTAssertEqual(stop.status, 0, stop.output.standardError)
        XCTAssertEqual(try control.transportState(), "STOPPED")

        // Into the daemon's recordings directory: the audio route serves no file outside it.
        let record = try runOnair(["record", "tone", "--duration", "4", "-o", paths.recordings.appendingPathComponent("{station}").path])
        XCTAssertEqual(record.status, 0, record.output.standardError)
        let beforeRecording = played()
        let recording = try runOnair(["cast", "1", "--to", "upnp:\(name)", "--server", "127.0.0.1:\(port)", "--wait", "1"])
        XCTAssertEqual(recording.status, 0, recording.output.standardError)
        XCTAssertTrue(recording.output.standardOutput.contains("to \(name) (http://127.0.0.1:\(port)/api/v1/recordings/1/audio)"),
                      recording.output.standardOutput)
        XCTAssertTrue(eventually(timeout: 20) { played() > beforeRecording + 2 * bytesPerSecond }, "the renderer plays the recording")
        XCTAssertEqual(try XCTUnwrap(try audio(from: beforeRecording)?.dominantFrequency()), 440, accuracy: 5, "the recording's tone")
    }

    func testARendererThatDoesNotAnswerIsOnePlainLineAndAFailingExit() throws {
        let unknown = try runOnair(["cast", "tone", "--to", "upnp:No Such Speaker", "--wait", "1"])
        XCTAssertEqual(unknown.status, 4)
        XCTAssertTrue(unknown.output.standardError.hasPrefix("onair: no UPnP renderer named \"No Such Speaker\" answered within 1 s"),
                      unknown.output.standardError)
        XCTAssertEqual(unknown.output.standardError.split(separator: "\n").count, 1, unknown.output.standardError)

        let port = try FreePort.pick()
        let dead = try runOnair(["cast", "--stop", "--to", "http://127.0.0.1:\(port)/description.xml"])
        XCTAssertEqual(dead.status, 1)
        XCTAssertTrue(dead.output.standardError.hasPrefix("onair: cannot reach the renderer: http://127.0.0.1:\(port)/description.xml: "),
                      dead.output.standardError)
        XCTAssertEqual(dead.output.standardError.split(separator: "\n").count, 1, dead.output.standardError)
    }
}
