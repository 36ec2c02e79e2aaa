import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A live HLS stream made by FFmpeg's own hls muxer in real time (`-re`), the real thing the HLS
/// follower is tested against: 1-second segments, a sliding window, deleted old segments and
/// program-date-times, in MPEG-TS or fMP4, optionally AES-128 encrypted.
///
/// The playlist never gets `#EXT-X-ENDLIST` by itself (`omit_endlist`), so an encoder can be
/// restarted into the same playlist, which makes FFmpeg mark a discontinuity; `stop(endingPlaylist:)`
/// ends the stream the way a server does.
///
///     let encoder = try LiveHLSEncoder(frequency: 440, listSize: 5)
///     server.serveDirectory(encoder.directory.url, at: "/hls/")
///     try encoder.waitForSegments(4)
public final class LiveHLSEncoder: @unchecked Sendable {
    public enum SegmentType: Sendable { case mpegts, fmp4 }

    public static let playlistName = "live.m3u8"
    public let directory: TemporaryDirectory
    private let segmentType: SegmentType
    private let listSize: Int
    private let encrypted: Bool
    private let lock = NSLock()
    private var process: RunningProcess?

    public init(frequency: Double = 440, sampleRate: Int = 44100, segmentType: SegmentType = .mpegts, listSize: Int = 5,
                encrypted: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "onair-hls")
        self.segmentType = segmentType
        self.listSize = listSize
        self.encrypted = encrypted
        if encrypted {
            var generator = SystemRandomNumberGenerator()
            try Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: directory.file("live.key"))
            try Data("live.key\n\(directory.file("live.key").path)\n".utf8).write(to: directory.file("keyinfo.txt"))
        }
        try launch(frequency: frequency, sampleRate: sampleRate, appending: false)
    }

    /// The playlist's path below the directory's URL prefix.
    public var playlistPath: String { Self.playlistName }

    /// The AES key, when encrypted.
    public var key: Data? { try? Data(contentsOf: directory.file("live.key")) }

    /// Blocks until the playlist lists at least `count` segments.
    public func waitForSegments(_ count: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: directory.file(Self.playlistName), encoding: .utf8),
               text.components(separatedBy: "#EXTINF").count - 1 >= count { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ProcessRunnerError.failed(lock.withLock { process }!.result(timedOut: true))
    }

    /// Replaces the encoder with another that appends to the same playlist: FFmpeg marks the seam
    /// with EXT-X-DISCONTINUITY, and the audio may change rate and tone.
    public func restart(frequency: Double, sampleRate: Int) throws {
        lock.withLock { process }?.stop(grace: 5)
        try launch(frequency: frequency, sampleRate: sampleRate, appending: true)
    }

    /// Stops the encoder; with `endingPlaylist` the playlist then gets EXT-X-ENDLIST, as a server
    /// ending the stream writes it.
    public func stop(endingPlaylist: Bool = false) {
        lock.withLock { process }?.stop(grace: 5)
        guard endingPlaylist, let text = try? String(contentsOf: directory.file(Self.playlistName), encoding: .utf8) else { return }
        // Written beside and renamed, so a reader never sees half a playlist.
        let temporary = directory.file("ended.m3u8.tmp")
        try? Data((text + "#EXT-X-ENDLIST\n").utf8).write(to: temporary)
        rename(temporary.path, directory.file(Self.playlistName).path)
    }

    deinit { stop() }

    private func launch(frequency: Double, sampleRate: Int, appending: Bool) throws {
        var flags = "delete_segments+program_date_time+temp_file+omit_endlist"
        if appending { flags += "+append_list+discont_start" }
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                         "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate)",
                         "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "1", "-hls_list_size", "\(listSize)",
                         "-hls_flags", flags]
        if segmentType == .fmp4 { arguments += ["-hls_segment_type", "fmp4"] }
        if encrypted { arguments += ["-hls_key_info_file", directory.file("keyinfo.txt").path] }
        let started = try ProcessRunner.start("ffmpeg", arguments + [directory.file(Self.playlistName).path],
                                              currentDirectory: directory.url)
        lock.withLock { process = started }
    }
}
