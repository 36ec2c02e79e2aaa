import Foundation

/// Serves a live HLS directory (a `LiveHLSEncoder`'s, or a `LiveDASHEncoder`'s with its MPD as the
/// playlist: outages and frozen manifests then apply alike) and misbehaves on demand the way CDNs and
/// encoders do: a segment refused, a segment served slowly, a playlist that stops updating,
/// sequence numbers never published (a jump), a total outage. It also records what was asked for.
///
///     let faults = HLSFaultInjector(directory: encoder.directory.url, prefix: "/hls/")
///     server.route("/hls/", faults.handler)
///     faults.refuse(sequence: 12)            // 404 for ever
///     faults.outage(seconds: 30)             // every request reset, starting now
///
/// Segments are matched by media sequence number, learnt from the playlists it serves.
public final class HLSFaultInjector: @unchecked Sendable {
    private let directory: URL
    private let prefix: String
    private let playlistName: String
    private let playlistContentType: String
    private let lock = NSLock()
    private var refused: [Int: Int] = [:]
    private var delays: [Int: TimeInterval] = [:]
    private var unpublished: ClosedRange<Int>?
    private var frozen: (until: Date, text: String?)?
    private var outageUntil: Date?
    private var sequences: [String: Int] = [:]
    private var durations: [Int: Double] = [:]
    private var requested: [Int] = []

    public init(directory: URL, prefix: String, playlistName: String = LiveHLSEncoder.playlistName,
                playlistContentType: String = "application/vnd.apple.mpegurl") {
        self.directory = directory; self.prefix = prefix; self.playlistName = playlistName
        self.playlistContentType = playlistContentType
    }

    // MARK: Faults

    /// Answers requests for this segment with `status` from now on.
    public func refuse(sequence: Int, status: Int = 404) { lock.withLock { refused[sequence] = status } }

    /// Holds this segment's response back for `seconds` before sending it.
    public func delay(sequence: Int, seconds: TimeInterval) { lock.withLock { delays[sequence] = seconds } }

    /// Serves the playlist as it is now for the next `seconds`, however the encoder moves on.
    public func freezePlaylist(seconds: TimeInterval) {
        lock.withLock { frozen = (Date(timeIntervalSinceNow: seconds), nil) }
    }

    /// Never lists these sequence numbers: playlists end before them until a later segment exists,
    /// then start after them — a jump in the media sequence, as after an encoder failover.
    public func skipPublishing(_ sequences: ClosedRange<Int>) { lock.withLock { unpublished = sequences } }

    /// Resets every connection for the next `seconds`: the server is unreachable.
    public func outage(seconds: TimeInterval) { lock.withLock { outageUntil = Date(timeIntervalSinceNow: seconds) } }

    // MARK: Observations

    /// The newest media sequence number in the encoder's playlist right now.
    public func latestSequence() -> Int? {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(playlistName), encoding: .utf8) else { return nil }
        return Self.segments(of: text).last?.sequence
    }

    /// Media sequence numbers of the segment requests so far, in order of arrival.
    public var segmentRequests: [Int] { lock.withLock { requested } }

    /// The EXTINF duration of a segment any served playlist listed.
    public func duration(of sequence: Int) -> Double? { lock.withLock { durations[sequence] } }

    // MARK: Serving

    public var handler: FixtureHTTPServer.Handler {
        let files = FixtureHTTPServer.directory(directory, at: prefix)
        return { [self] request, connection in
            let name = String(request.path.dropFirst(prefix.count))
            if lock.withLock({ outageUntil.map { Date() < $0 } ?? false }) { return connection.reset() }
            if name == playlistName {
                guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                    return try FixtureHTTPServer.status(404)(request, connection)
                }
                let served = lock.withLock { playlist(servedFrom: text) }
                return try FixtureHTTPServer.file(Data(served.utf8), contentType: playlistContentType)(request, connection)
            }
            let (sequence, status, delay) = lock.withLock { () -> (Int?, Int?, TimeInterval?) in
                guard let sequence = sequences[name] else { return (nil, nil, nil) }
                requested.append(sequence)
                return (sequence, refused[sequence], delays[sequence])
            }
            if let status, sequence != nil { return try FixtureHTTPServer.status(status)(request, connection) }
            if let delay { try connection.sleep(delay) }
            try files(request, connection)
        }
    }

    /// What to serve instead of the encoder's playlist `text`. Lock held.
    private func playlist(servedFrom text: String) -> String {
        for segment in Self.segments(of: text) {
            sequences[segment.uri] = segment.sequence
            durations[segment.sequence] = segment.duration
        }
        var current = text
        if let frozen, Date() < frozen.until {
            current = frozen.text ?? text
            self.frozen = (frozen.until, current)
        }
        guard let unpublished else { return current }
        let segments = Self.segments(of: current)
        let kept = segments.contains { $0.sequence > unpublished.upperBound }
            ? segments.filter { $0.sequence > unpublished.upperBound }
            : segments.filter { $0.sequence < unpublished.lowerBound }
        let header = current.split(separator: "\n").prefix { !$0.hasPrefix("#EXTINF") && !$0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME")
            && $0 != "#EXT-X-DISCONTINUITY" }
            .map { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") ? "#EXT-X-MEDIA-SEQUENCE:\(kept.first?.sequence ?? 0)" : String($0) }
        return (header + kept.flatMap(\.lines)).joined(separator: "\n") + "\n"
    }

    private struct Segment {
        var sequence: Int
        var duration: Double
        var uri: String
        /// Its tags and its URI line, as written.
        var lines: [String]
    }

    /// The segments of a media playlist, numbered from EXT-X-MEDIA-SEQUENCE.
    private static func segments(of text: String) -> [Segment] {
        var sequence = 0
        var pending: [String] = []
        var duration = 0.0
        var result: [Segment] = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                sequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) ?? 0
            } else if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst("#EXTINF:".count).split(separator: ",").first ?? "") ?? 0
                pending.append(line)
            } else if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") || line == "#EXT-X-DISCONTINUITY" {
                pending.append(line)
            } else if !line.isEmpty, !line.hasPrefix("#") {
                result.append(Segment(sequence: sequence, duration: duration, uri: line, lines: pending + [line]))
                sequence += 1
                pending = []
            }
        }
        return result
    }
}
