import Foundation
import TestSupport
import XCTest

/// Checks the test support code against the real tools, so a failure elsewhere is not the
/// fixtures' fault.
final class SupportSelfTests: XCTestCase {
    // MARK: Icecast

    func testIcecastServesMP3AACAndOpusMountsAndInBandTitles() throws {
        let icecast = try IcecastHarness()
        defer { icecast.stop() }
        let work = try TemporaryDirectory()
        let title = "Artíst - It's a Title"
        let mounts: [(mount: String, codec: AudioCodec, formatName: String, codecName: String)] = [
            ("/tone.mp3", .mp3, "mp3", "mp3"),
            ("/tone.aac", .aacADTS, "aac", "aac"),
            ("/tone.opus", .oggOpus, "ogg", "opus"),
        ]
        for (mount, codec, _, _) in mounts {
            try icecast.startSource(mount: mount, codec: codec, frequency: 1000, title: title)
        }
        XCTAssertEqual(Set(try icecast.mounts().map(\.mount)), Set(mounts.map(\.mount)))

        for (mount, codec, formatName, codecName) in mounts {
            let response = try RawHTTP.get(icecast.url(mount: mount), headers: [("Icy-MetaData", "1")], duration: 2)
            XCTAssertEqual(response.statusCode, 200, mount)
            XCTAssertEqual(response.headers["Content-Type"], codec.contentType, mount)
            var audio = response.body
            if let metaint = response.headers["icy-metaint"].flatMap(Int.init) {
                let stream = ICYReceivedStream(interleaved: response.body, metaint: metaint)
                audio = stream.audio
                XCTAssertTrue(stream.titles.contains(Array(title.utf8)), "\(mount): \(stream.blocks)")
            } else {
                XCTAssertEqual(codec, .oggOpus, "only Ogg mounts come without icy-metaint")
            }
            let capture = work.file(String(mount.dropFirst()))
            try audio.write(to: capture)
            let probe = try FFprobe.inspect(capture)
            XCTAssertEqual(probe.formatName, formatName, mount)
            XCTAssertEqual(probe.audio?.codecName, codecName, mount)
            if codec == .oggOpus { XCTAssertEqual(probe.audio?.tags["title"], title) }
            let frequency = try XCTUnwrap(FFprobe.decodePCM(capture).dominantFrequency(), mount)
            XCTAssertEqual(frequency, 1000, accuracy: 2, mount)
        }

        try icecast.stopSource(mount: "/tone.mp3")
        XCTAssertEqual(try RawHTTP.get(icecast.url(mount: "/tone.mp3")).statusCode, 404)
    }

    // MARK: Processes

    /// A child started from a Dispatch worker (which blocks nearly every signal) still hears SIGTERM:
    /// otherwise every graceful stop of a server or encoder waits out its grace. Run alone, this test
    /// also makes the first child of the process, from the worker, as the whole suite sometimes did.
    func testAChildStartedFromADispatchWorkerHasNoBlockedSignals() throws {
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var child: RunningProcess?
        DispatchQueue.global().async {
            child = try? ProcessRunner.start("sleep", ["30"])
            started.signal()
        }
        started.wait()
        let sleeper = try XCTUnwrap(child)
        let status = try String(contentsOfFile: "/proc/\(sleeper.pid)/status", encoding: .utf8)
        let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
        XCTAssertEqual(blocked.map { String($0.dropFirst("SigBlk:".count)).trimmingCharacters(in: .whitespaces) },
                       "0000000000000000")
        sleeper.stop(grace: 30)
        XCTAssertFalse(sleeper.isRunning)
    }

    // MARK: Audio fixtures and tone analysis

    func testToneAnalysisMeasuresA1kHzWAVAndItsMP3() throws {
        let wav = try AudioFixtures.sine(frequency: 1000, seconds: 3, codec: .wav, sampleRate: 44100)
        let pcm = try PCMAudio(wavFile: wav)
        XCTAssertEqual(pcm.sampleRate, 44100)
        XCTAssertEqual(pcm.channels, 2)
        XCTAssertEqual(pcm.duration, 3, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(pcm.dominantFrequency()), 1000, accuracy: 2)
        XCTAssertEqual(pcm.rms(), 0.0625, accuracy: 0.001, "1/8 full scale, upmixed to stereo at -3 dB")
        XCTAssertLessThan(pcm.longestSilence(), 0.001)

        let mp3 = try AudioFixtures.sine(frequency: 1000, seconds: 3, codec: .mp3)
        XCTAssertEqual(try FFprobe.decodeErrors(mp3), 0)
        let decoded = try FFprobe.decodePCM(mp3)
        XCTAssertEqual(decoded.duration, 3, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(decoded.dominantFrequency()), 1000, accuracy: 2)
    }

    func testToneAnalysisFindsSilenceAndToneChanges() throws {
        let wav = try AudioFixtures.tones([Tone(frequency: 440, seconds: 1), .silence(seconds: 0.5),
                                           Tone(frequency: 880, seconds: 1)], codec: .wav, sampleRate: 48000)
        let pcm = try PCMAudio(wavFile: wav)
        XCTAssertEqual(pcm.duration, 2.5, accuracy: 0.001)
        XCTAssertEqual(pcm.longestSilence(), 0.5, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(pcm.slice(from: 0, to: 1).dominantFrequency()), 440, accuracy: 2)
        XCTAssertEqual(try XCTUnwrap(pcm.slice(from: 1.5).dominantFrequency()), 880, accuracy: 2)
        XCTAssertNil(pcm.slice(from: 1.1, to: 1.4).dominantFrequency())
    }

    func testWAVReaderRejectsHeaderSizesThatDoNotMatchTheData() throws {
        let wav = try Data(contentsOf: AudioFixtures.sine(seconds: 1, codec: .wav))
        XCTAssertNoThrow(try PCMAudio(wav: wav))
        XCTAssertThrowsError(try PCMAudio(wav: wav.dropLast(100)))
        XCTAssertThrowsError(try PCMAudio(wav: wav + Data([0, 0])))
    }

    func testEveryCodecEncodesAndDecodesCleanly() throws {
        for codec in AudioCodec.allCases {
            let file = try AudioFixtures.sine(frequency: 440, seconds: 2, codec: codec)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "\(codec)")
            let probe = try FFprobe.inspect(file)
            XCTAssertEqual(probe.audio?.sampleRate, codec.defaultSampleRate, "\(codec)")
            XCTAssertEqual(try XCTUnwrap(FFprobe.decodePCM(file).dominantFrequency(), "\(codec)"), 440, accuracy: 2)
        }
    }

    // MARK: Fixture HTTP server

    func testFixtureServerServesAnICYStreamThatCurlReads() throws {
        let audio = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let writer = ICYStreamWriter(audio: audio, metaint: 8192, schedule: [
            .title("Ärzte - It's Westerland"),
            .title(bytes: [0x43, 0x61, 0x66, 0xE9], atAudioByte: 20_000),  // "Café" in Latin-1
            .init(atAudioByte: 20_000, .raw([1] + Array("garbage, no NULs".utf8))),
        ])
        let server = try FixtureHTTPServer(routes: [
            "/icy": FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK"),
            "/icecast-style": FixtureHTTPServer.icyStream(writer, statusLine: "HTTP/1.0 200 OK",
                                                          headers: [("icy-name", "Test FM")]),
        ])
        defer { server.stop() }
        let work = try TemporaryDirectory()

        // curl reads an Icecast-style reply: headers apart, body byte for byte.
        let fetched = try ProcessRunner.run("curl", [
            "-sS", "--max-time", "10", "-H", "Icy-MetaData: 1", "-D", work.file("headers").path,
            "-o", work.file("body").path, server.url("/icecast-style").absoluteString,
        ]).check()
        XCTAssertEqual(fetched.stderr, Data())
        let headers = try String(contentsOf: work.file("headers"), encoding: .utf8)
        XCTAssertTrue(headers.contains("icy-metaint: 8192"), headers)
        XCTAssertTrue(headers.contains("icy-name: Test FM"), headers)
        let body = try Data(contentsOf: work.file("body"))
        XCTAssertEqual(body, writer.interleaved())
        let received = ICYReceivedStream(interleaved: body, metaint: 8192)
        XCTAssertEqual(received.audio, audio)
        XCTAssertEqual(received.titles, [Array("Ärzte - It's Westerland".utf8), [0x43, 0x61, 0x66, 0xE9]])
        XCTAssertEqual(received.blocks.map(\.audioOffset), [8192, 24576, 32768])
        XCTAssertEqual(received.blocks.last?.payload, Array("garbage, no NULs".utf8))

        // `ICY 200 OK` is not HTTP: the curl CLI refuses it unless HTTP/0.9 is allowed (and then the
        // headers end up in the body), which is why libcurl needs CURLOPT_HTTP200ALIASES.
        let refused = try ProcessRunner.run("curl", ["-sS", "--max-time", "10", server.url("/icy").absoluteString])
        XCTAssertFalse(refused.succeeded)
        XCTAssertTrue(refused.stderrText.contains("HTTP/0.9"), refused.stderrText)
        let raw = try RawHTTP.get(server.url("/icy"), headers: [("Icy-MetaData", "1")])
        XCTAssertEqual(raw.statusLine, "ICY 200 OK")
        XCTAssertEqual(raw.body, writer.interleaved())
        let plain = try RawHTTP.get(server.url("/icy"))
        XCTAssertNil(plain.headers["icy-metaint"])
        XCTAssertEqual(plain.body, audio, "no metadata unless asked for")
        XCTAssertEqual(server.requestCount("/icy"), 3)
    }

    func testFixtureServerRoutesRedirectsPacesAndStops() throws {
        let playlist = Data("[playlist]\nFile1=http://example.invalid/stream\nNumberOfEntries=1\n".utf8)
        let server = try FixtureHTTPServer(routes: [
            "/station.pls": FixtureHTTPServer.file(playlist, contentType: "audio/x-scpls"),
            "/old": FixtureHTTPServer.redirect(to: "/station.pls", code: 301),
            "/evil": FixtureHTTPServer.redirect(to: "file:///etc/passwd"),
            "/gone": FixtureHTTPServer.status(404),
            "/paced": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: Data(count: 8000), metaint: 1000),
                                                  bytesPerSecond: 8000),
        ])
        defer { server.stop() }
        server.route("/stall") { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [("Content-Type", "audio/mpeg")])
            try connection.sleep(60)
        }

        let followed = try ProcessRunner.run("curl", ["-sSL", "--max-time", "10", server.url("/old?x=%C3%A9&y").absoluteString]).check()
        XCTAssertEqual(followed.stdout, playlist)
        XCTAssertEqual(server.requestCount("/old"), 1)
        XCTAssertEqual(server.requestCount("/station.pls"), 1)
        XCTAssertEqual(server.requests("/old").first?.query, ["x": "é", "y": ""])
        XCTAssertEqual(server.requests("/old").first?.headers["user-agent"]?.hasPrefix("curl/"), true)

        let evil = try RawHTTP.get(server.url("/evil"))
        XCTAssertEqual(evil.statusLine, "HTTP/1.0 302 Found")
        XCTAssertEqual(evil.headers["location"], "file:///etc/passwd")
        XCTAssertEqual(try RawHTTP.get(server.url("/gone")).statusCode, 404)
        XCTAssertEqual(try RawHTTP.get(server.url("/not-routed")).statusCode, 404)

        let started = Date()
        XCTAssertEqual(try RawHTTP.get(server.url("/paced")).body.count, 8000)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 0.95, "8000 bytes at 8000 bytes/s take a second")
        XCTAssertLessThan(elapsed, 2, "and not much longer, even on a busy machine")

        // Files served from a directory, read at request time.
        let directory = try TemporaryDirectory()
        server.serveDirectory(directory.url, at: "/hls/")
        try Data("#EXTM3U\n".utf8).write(to: directory.file("live.m3u8"))
        let served = try RawHTTP.get(server.url("/hls/live.m3u8"))
        XCTAssertEqual(served.headers["Content-Type"], "application/vnd.apple.mpegurl")
        XCTAssertEqual(served.bodyText, "#EXTM3U\n")
        XCTAssertEqual(try RawHTTP.get(server.url("/hls/missing.ts")).statusCode, 404)
        XCTAssertEqual(try RawHTTP.get(server.url("/hls/../station.pls")).statusCode, 404)

        // A handler notices when its client hangs up.
        let noticed = DispatchSemaphore(value: 0)
        server.route("/until-gone") { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK")
            while connection.isClientConnected {
                try connection.send(Data(count: 1000))
                try connection.sleep(0.01)
            }
            noticed.signal()
        }
        XCTAssertEqual(try RawHTTP.get(server.url("/until-gone"), maxBodyBytes: 5000).body.count, 5000)
        XCTAssertEqual(noticed.wait(timeout: .now() + 5), .success)

        // A client stuck on a stalled stream is released when the server stops.
        let stalled = try ProcessRunner.start("curl", ["-s", server.url("/stall").absoluteString])
        let deadline = Date(timeIntervalSinceNow: 5)
        while server.requestCount("/stall") == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(server.requestCount("/stall"), 1)
        let stopping = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(stopping), 2)
        XCTAssertTrue(stalled.waitForExit(timeout: 5))
        XCTAssertThrowsError(try RawHTTP.get(server.url("/station.pls")))
    }
}
