import Foundation

/// A live MPEG-DASH stream made by FFmpeg's own dash muxer in real time (`-re -f dash -streaming 1`):
/// 1-second segments, a sliding window of `windowSize` segments, `$Number$` templates with or without a
/// SegmentTimeline, AAC in fMP4 or Opus in WebM. A restart is what a server restart looks like to a
/// player: a new availabilityStartTime and numbering from 1 again, in the same directory.
///
///     let encoder = try LiveDASHEncoder(codec: .aac, timeline: true)
///     server.serveDirectory(encoder.directory.url, at: "/dash/")
///     try encoder.waitForSegments(4)
public final class LiveDASHEncoder: @unchecked Sendable {
    public enum Codec: Sendable {
        /// AAC-LC at 44.1 kHz in fMP4 segments.
        case aac
        /// Opus at 48 kHz in WebM segments (FFmpeg's choice for Opus).
        case opus
    }

    public static let manifestName = "live.mpd"
    public let directory: TemporaryDirectory
    public let codec: Codec
    private let frequency: Double
    private let timeline: Bool
    private let windowSize: Int
    private let utcTimingURL: String?
    private let lock = NSLock()
    private var process: RunningProcess?

    public init(frequency: Double = 440, codec: Codec = .aac, timeline: Bool = false, windowSize: Int = 5,
                utcTimingURL: String? = nil) throws {
        directory = try TemporaryDirectory(prefix: "onair-dash")
        self.frequency = frequency; self.codec = codec; self.timeline = timeline
        self.windowSize = windowSize; self.utcTimingURL = utcTimingURL
        try launch()
    }

    /// Samples per second of the audio.
    public var sampleRate: Int { codec == .aac ? 44100 : 48000 }

    /// Blocks until at least `count` media segments are written and the MPD lists them.
    public func waitForSegments(_ count: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
            if names.contains(Self.manifestName),
               names.filter({ $0.hasPrefix("chunk-") && !$0.hasSuffix(".tmp") }).count >= count { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ProcessRunnerError.failed(lock.withLock { process }!.result(timedOut: true))
    }

    /// The MPD as FFmpeg last wrote it.
    public func manifest() throws -> String {
        try String(contentsOf: directory.file(Self.manifestName), encoding: .utf8)
    }

    /// Kills the encoder (as a crash would: the MPD stays dynamic, no end written), and after
    /// `downtime` seconds starts another in its place.
    public func restart(after downtime: TimeInterval) throws {
        lock.withLock { process }?.stop(grace: 0)
        Thread.sleep(forTimeInterval: downtime)
        try launch()
    }

    public func stop() {
        lock.withLock { process }?.stop(grace: 5)
    }

    deinit { stop() }

    private func launch() throws {
        let encoding = codec == .aac ? ["-c:a", "aac", "-b:a", "64k"] : ["-c:a", "libopus", "-b:a", "64k"]
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                         "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate)"] + encoding
            + ["-f", "dash", "-streaming", "1", "-seg_duration", "1", "-window_size", "\(windowSize)",
               "-use_template", "1", "-use_timeline", timeline ? "1" : "0"]
        if let utcTimingURL { arguments += ["-utc_timing_url", utcTimingURL] }
        let started = try ProcessRunner.start("ffmpeg", arguments + [directory.file(Self.manifestName).path],
                                              currentDirectory: directory.url)
        lock.withLock { process = started }
    }
}
