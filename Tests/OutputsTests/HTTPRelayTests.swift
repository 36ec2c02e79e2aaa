import Foundation
import XCTest
import Outputs
import Sinks
import StreamInput
import TestSupport

/// The HTTP relay against a fixture ICY station, read by ffprobe, our ICY parser and raw sockets.
final class HTTPRelayTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var port = 0

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "onair-http-relay")
        port = Int(try FreePort.pick())
    }

    /// Two minutes of a 128 kbit/s MP3 tone: longer than any test here, even at ten times real time.
    private func stationAudio() throws -> Data {
        try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 120))
    }

    private func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")! }

    func testFFprobeIdentifiesTheCopiedAndTheReencodedMount() throws {
        let station = try RelayTestStation(audio: try stationAudio(), sinks: [
            "http://127.0.0.1:\(port)/radio", "http://127.0.0.1:\(port)/radio.ogg?format=opus:64",
        ])
        defer { station.stop() }

        XCTAssertEqual(try probeCodec(url("/radio")), "mp3")
        XCTAssertEqual(try probeCodec(url("/radio.ogg")), "opus")
        // Listeners join mid-stream between whole frames and pages, after the container's header.
        for (path, type) in [("/radio", "audio/mpeg"), ("/radio.ogg", "audio/ogg")] {
            let capture = try RawHTTP.get(url(path), duration: 2)
            XCTAssertEqual(capture.headers["Content-Type"], type, path)
            XCTAssertEqual(capture.headers["icy-name"], "Fixture FM", path)
            XCTAssertEqual(capture.headers["Cache-Control"], "no-cache, no-store", path)
            XCTAssertGreaterThan(capture.body.count, 8000, path)
            let file = directory.file("capture\(path.replacingOccurrences(of: "/", with: "-"))")
            try capture.body.write(to: file)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, path)
        }
        XCTAssertEqual(station.fixture.requestCount(RelayTestStation.path), 1)
    }

    func testTwoListenersShareOneUpstreamConnection() throws {
        let station = try RelayTestStation(audio: try stationAudio(), sinks: ["http://127.0.0.1:\(port)/radio"])
        defer { station.stop() }
        let sizes = ThreadSafeArray<Int>()
        let radio = url("/radio")
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            sizes.append((try? RawHTTP.get(radio, duration: 3).body.count) ?? 0)
        }
        // Each got the station's audio at its real-time rate, less the moment the station takes to start.
        XCTAssertEqual(sizes.values.count, 2)
        for size in sizes.values { XCTAssertGreaterThan(size, 2 * 16_000) }
        XCTAssertEqual(station.fixture.requestCount(RelayTestStation.path), 1)
    }

    func testAnICYListenerReadsTheTitleChangedAtTheSource() throws {
        let changed = "Guns N' Roses - Don't Cry"
        let station = try RelayTestStation(audio: try stationAudio(), titles: [
            .title("Opening"), .title(changed, atAudioByte: 2 * 16_000),
        ], sinks: ["http://127.0.0.1:\(port)/radio"])
        defer { station.stop() }

        let plain = ThreadSafeArray<RawHTTPResponse>()
        let radio = url("/radio")
        DispatchQueue.global().async {
            if let response = try? RawHTTP.get(radio, duration: 5) { plain.append(response) }
        }
        let response = try RawHTTP.get(radio, headers: [("Icy-MetaData", "1")], duration: 5)
        XCTAssertEqual(response.headers["icy-metaint"], "8192")
        var deinterleaver = ICYDeinterleaver(metaint: 8192)
        var audio = Data()
        var titles: [String] = []
        response.body.withUnsafeBytes { body in
            deinterleaver.consume(body, audio: { audio.append(contentsOf: $0) },
                                  metadata: { block, _ in titles.append(ICYMetadata(block: block).title ?? "") })
        }
        XCTAssertEqual(titles, ["Opening", changed])
        let file = directory.file("icy-audio.mp3")
        try audio.write(to: file)
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "metadata slots fell where the client expects them")

        // A listener that did not ask gets clean audio, without slots.
        Thread.sleep(forTimeInterval: 0.5)
        let clean = try XCTUnwrap(plain.values.first)
        XCTAssertNil(clean.headers["icy-metaint"])
        XCTAssertNil(clean.body.firstRange(of: Data("StreamTitle".utf8)))
    }

    func testAListenerThatStopsReadingIsDroppedWhileTheOtherPlaysOn() throws {
        // Ten times real time, so the stalled listener falls 256 KiB behind within seconds.
        let station = try RelayTestStation(audio: try stationAudio(), bytesPerSecond: 160_000,
                                           sinks: ["http://127.0.0.1:\(port)/radio"])
        defer { station.stop() }
        let stalled = try RelayTestClient(port: port, receiveBuffer: 4096)
        stalled.send("GET /radio HTTP/1.0\r\n\r\n")
        let reader = try RelayTestClient(port: port)
        reader.send("GET /radio HTTP/1.0\r\n\r\n")
        let received = ThreadSafeArray<(at: Date, bytes: Int)>()
        let stopReading = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        Thread {
            while stopReading.wait(timeout: .now()) == .timedOut {
                let chunk = reader.readToEnd(timeout: 0.1)
                received.append((Date(), chunk.bytes.count))
                if chunk.closed { break }
            }
            readerDone.signal()
        }.start()

        let dropped = try waitFor("a dropped listener", timeout: 8) { station.events.warnings.first { $0.contains("dropped listener") } }
        let droppedAt = Date()
        Thread.sleep(forTimeInterval: 1)
        stopReading.signal()
        XCTAssertTrue(dropped.contains("fell more than 256 KiB behind"), dropped)
        XCTAssertTrue(dropped.hasPrefix("http://127.0.0.1:\(port)/radio"), dropped)
        let status = try statusJSON()
        XCTAssertEqual((status.mounts.first?["listenerCount"] as? Int), 1)
        XCTAssertTrue(stalled.readToEnd(timeout: 5).closed, "the stalled listener's connection is closed")
        readerDone.wait()
        let afterDrop = received.values.filter { $0.at > droppedAt }.map(\.bytes).reduce(0, +)
        XCTAssertGreaterThan(afterDrop, 80_000, "the other listener kept receiving at the station's pace (160 kB/s)")
    }

    func testRequestsOutsideTheRulesAreRefused() throws {
        let station = try RelayTestStation(audio: try stationAudio(), sinks: [
            "http://127.0.0.1:\(port)/radio", "http://127.0.0.1:\(port)/solo?max-listeners=1",
        ])
        defer { station.stop() }
        func exchange(_ request: String) throws -> (status: Int?, response: String, closed: Bool) {
            let client = try RelayTestClient(port: port)
            client.send(request)
            let (bytes, closed) = client.readToEnd(timeout: 5)
            return (RelayTestClient.status(of: bytes), String(decoding: bytes, as: UTF8.self), closed)
        }
        let oversized = try exchange("GET /radio HTTP/1.0\r\nX-Filler: \(String(repeating: "a", count: 9000))\r\n\r\n")
        XCTAssertEqual(oversized.status, 431)
        XCTAssertTrue(oversized.closed)
        let manyHeaders = (0..<70).map { "X-\($0): 1\r\n" }.joined()
        XCTAssertEqual(try exchange("GET /radio HTTP/1.0\r\n\(manyHeaders)\r\n").status, 431)
        let post = try exchange("POST /radio HTTP/1.0\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(post.status, 405)
        XCTAssertTrue(post.response.contains("Allow: GET, HEAD"))
        XCTAssertEqual(try exchange("GET /elsewhere HTTP/1.0\r\n\r\n").status, 404)
        XCTAssertEqual(try exchange("GET /radio/../../etc/passwd HTTP/1.0\r\n\r\n").status, 404)
        XCTAssertEqual(try exchange("HELLO\r\n\r\n").status, 400)
        let head = try exchange("HEAD /radio HTTP/1.0\r\n\r\n")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.response.contains("Content-Type: audio/mpeg\r\n"))
        XCTAssertTrue(head.response.hasSuffix("\r\n\r\n"), "a HEAD response has no body")

        let first = try RelayTestClient(port: port)
        first.send("GET /solo HTTP/1.0\r\n\r\n")
        XCTAssertEqual(RelayTestClient.status(of: first.readToEnd(timeout: 1).bytes), 200)
        XCTAssertEqual(try exchange("GET /solo HTTP/1.0\r\n\r\n").status, 503, "max-listeners=1")

        let status = try statusJSON()
        XCTAssertEqual(status.mounts.compactMap { $0["path"] as? String }, ["/radio", "/solo"])
        XCTAssertEqual(status.mounts.last?["listenerCount"] as? Int, 1)
        XCTAssertEqual(status.mounts.first?["format"] as? String, "copy")
    }

    func testASlowRequestIsCutOff() throws {
        let station = try RelayTestStation(audio: try stationAudio(), sinks: ["http://127.0.0.1:\(port)/radio"])
        defer { station.stop() }
        let client = try RelayTestClient(port: port)
        let start = Date()
        client.send("GET /radio HTTP/1.0\r\n")
        var reply = (bytes: Data(), closed: false)
        for line in 0..<10 where !reply.closed {
            // A header line a second, as a slowloris sends them, to hold the connection open. What comes back
            // is gathered across the reads: the 408 and the close may fall on either side of a read's second.
            let read = client.readToEnd(timeout: 1)
            reply = (reply.bytes + read.bytes, read.closed)
            client.send("X-Slow-\(line): 1\r\n")
        }
        XCTAssertTrue(reply.closed)
        XCTAssertEqual(RelayTestClient.status(of: reply.bytes), 408)
        XCTAssertEqual(Date().timeIntervalSince(start), 5, accuracy: 1.5)
    }

    func testServingBeyondLoopbackNeedsAllowRemoteAndAToken() throws {
        for (sink, needs) in [("http://0.0.0.0:\(port)/radio", "allow-remote"),
                              ("http://0.0.0.0:\(port)/radio?allow-remote", "token=SECRET")] {
            let spec = try SinkSpec(parsing: sink)
            XCTAssertThrowsError(try SinkFactory.make(spec, format: .snapcastDefault), sink) { error in
                XCTAssertTrue("\(error)".contains(needs), "\(error)")
            }
        }
        let sink = "http://0.0.0.0:\(port)/radio?allow-remote&token=s3cret"
        XCTAssertFalse(try SinkSpec(parsing: sink).description.contains("s3cret"))
        let station = try RelayTestStation(audio: try stationAudio(), sinks: [sink])
        defer { station.stop() }
        XCTAssertEqual(try RawHTTP.get(url("/radio"), maxBodyBytes: 0).statusCode, 401)
        XCTAssertEqual(try RawHTTP.get(url("/status.json")).statusCode, 401)
        XCTAssertEqual(try RawHTTP.get(url("/radio?token=wrong"), maxBodyBytes: 0).statusCode, 401)
        XCTAssertEqual(try RawHTTP.get(url("/radio?token=s3cret"), maxBodyBytes: 1000).statusCode, 200)
        XCTAssertEqual(try RawHTTP.get(url("/radio"), headers: [("Authorization", "Bearer s3cret")], maxBodyBytes: 1000).statusCode, 200)
        let status = try RawHTTP.get(url("/status.json?token=s3cret"))
        XCTAssertEqual(status.statusCode, 200)
        XCTAssertFalse(status.bodyText.contains("s3cret"))
    }

    // MARK: Helpers

    private func probeCodec(_ url: URL) throws -> String? {
        let result = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "json",
                                                       url.absoluteString], timeout: 30).check()
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return ((json?["streams"] as? [[String: Any]])?.first)?["codec_name"] as? String
    }

    private func statusJSON() throws -> (mounts: [[String: Any]], raw: String) {
        let response = try RawHTTP.get(url("/status.json"))
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return ((json?["mounts"] as? [[String: Any]]) ?? [], response.bodyText)
    }
}
