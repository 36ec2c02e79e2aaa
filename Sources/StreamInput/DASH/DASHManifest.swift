import Foundation
import RadioModel

/// The MPD side of following a live DASH presentation: loads the MPD when it may have changed
/// (`minimumUpdatePeriod`, or after a segment failed), asks the server's clock as UTCTiming says,
/// reads the `sidx` of each SegmentBase file it follows (a Range request for its indexRange), and
/// lists the segments available now through a `DASHTimeline`.
///
/// A dynamic MPD is a formula: which segments exist follows from the clock, so an error in our clock
/// asks for segments not yet written or already gone. The offset to the server's clock is measured
/// when the MPD is first loaded and every `clockCheckInterval` after.
///
/// Network thread only: every method is called there and every completion runs there.
final class DASHManifest: @unchecked Sendable {
    /// The MPD is loaded again at least this often, whatever minimumUpdatePeriod says, so a restarted
    /// server (a new availabilityStartTime) is noticed.
    static let maxReloadInterval = 30.0
    static let clockCheckInterval = 600.0
    /// Seconds after its availability time a refused segment is still waited for (at least two segments).
    static let publicationGrace = 4.0

    struct Update {
        var listing: DASHTimeline.Listing
        /// Seconds until the next segment should be available.
        var nextRefresh: Double
    }

    private let engine: TransferEngine
    private let options: LiveStreamOptions
    let url: String
    /// Where the MPD is loaded from: its URL, until an MPD@Location moves it.
    private var location: String
    private var timeline: DASHTimeline
    private var mpd: MPD?
    private var loadedAt = -Double.infinity
    private var reloadWanted = true
    /// Seconds to add to this machine's clock to get the server's.
    private(set) var clockOffset = 0.0
    private var clockCheckedAt: Double?
    private var warnedClock = false
    /// The MPD's lenient readings already told, so a reloaded MPD does not repeat them.
    private var toldWarnings: Set<String> = []
    private var transfer: TransferID?
    private let onWarning: @Sendable (String) -> Void

    init(url: String, engine: TransferEngine, options: LiveStreamOptions, onWarning: @escaping @Sendable (String) -> Void) {
        self.url = url; self.engine = engine; self.options = options; self.onWarning = onWarning
        location = url
        timeline = DASHTimeline(quality: options.quality)
    }

    /// How far behind the live edge to start, in segments: the MPD's suggestedPresentationDelay when longer.
    func liveEdgeDistance(default distance: Double, segmentDuration: Double) -> Double {
        guard let delay = mpd?.suggestedPresentationDelay, segmentDuration > 0 else { return distance }
        return max(distance, delay / segmentDuration)
    }

    /// A segment could not be had: the MPD may have changed (a restart, a new period) before its update period.
    func segmentFailed() { reloadWanted = true }

    /// Whether a segment the server refused may still be on its way: an encoder running a little
    /// behind the clock writes it late.
    func mayStillBePublished(_ segment: MediaSegment) -> Bool {
        guard let start = segment.programDateTime else { return false }
        let grace = max(Self.publicationGrace, 2 * segment.duration)
        return Date().addingTimeInterval(clockOffset) < start.addingTimeInterval(segment.duration + grace)
    }

    func cancel() {
        if let transfer { engine.cancel(transfer) }
        transfer = nil
    }

    /// The segments available now, loading the MPD and the clock first when due.
    func refresh(completion: @escaping @Sendable (Result<Update, SegmentFailure>) -> Void) {
        let now = TransferEngine.now()
        let reloadInterval = min(mpd?.minimumUpdatePeriod ?? Self.maxReloadInterval, Self.maxReloadInterval)
        guard mpd == nil || (mpd?.type == .dynamic && (reloadWanted || now - loadedAt >= reloadInterval)) else {
            return completion(list())
        }
        let request = TransferRequest(url: location, connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        transfer = engine.load(request, maxBytes: MPDParser.maxBytes) { [self] result in
            transfer = nil
            switch result {
            case .failure(let error):
                completion(.failure(SegmentFailure(error)))
            case .success(let response):
                do {
                    let loaded = try MPDParser.parse(response.body, url: response.head.url)
                    mpd = loaded
                    loadedAt = now
                    reloadWanted = false
                    location = loaded.location ?? location
                    for warning in loaded.warnings where toldWarnings.insert(warning).inserted {
                        onWarning("\(URLRedaction.redact(response.head.url)): \(warning)")
                    }
                    checkClock(of: loaded, mpdHead: response.head, requestedAt: now) { [self] in
                        loadIndexes(timeline.missingIndexes(loaded)[...]) { [self] failure in completion(failure.map { .failure($0) } ?? list()) }
                    }
                } catch {
                    completion(.failure(SegmentFailure(message: "\(error)", isTransient: false)))
                }
            }
        }
    }

    private func list() -> Result<Update, SegmentFailure> {
        guard let mpd else { return .failure(SegmentFailure(message: "no MPD", isTransient: true)) }
        let now = Date().addingTimeInterval(clockOffset)
        do {
            let listing = try timeline.playlist(mpd, now: now)
            guard !listing.playlist.segments.isEmpty || mpd.periods.contains(where: { timeline.choose(from: $0.representations) != nil }) else {
                return .failure(SegmentFailure(message: "\(URLRedaction.redact(url)) has no audio representation onair can follow",
                                               isTransient: false))
            }
            if let ended = listing.lastSegmentEnded {
                let depth = mpd.timeShiftBufferDepth.map { " (\(Int($0)) s)" } ?? ""
                return .failure(SegmentFailure(message: "\(URLRedaction.redact(url)): nothing in the MPD is available now: its last segment "
                                               + "ended at \(Timestamp.format(ended)), longer ago than its time-shift buffer\(depth)",
                                               isTransient: false))
            }
            let target = listing.playlist.targetDuration
            let nextEnd = listing.playlist.segments.last.map { $0.programDateTime!.addingTimeInterval($0.duration + target) }
            let wait = nextEnd.map { $0.timeIntervalSince(now) + DASHTimeline.availabilitySlack } ?? target
            return .success(Update(listing: listing, nextRefresh: min(max(wait, 0.1), target, Self.maxReloadInterval)))
        } catch {
            return .failure(SegmentFailure(message: "\(error)", isTransient: false))
        }
    }

    // MARK: SegmentBase indexes

    /// Reads, one after the other, the `sidx` boxes the followed SegmentBase representations need.
    private func loadIndexes(_ missing: ArraySlice<MPD.SegmentBase>, then done: @escaping @Sendable (SegmentFailure?) -> Void) {
        guard let base = missing.first else { return done(nil) }
        let range = base.indexRange
        let request = TransferRequest(url: base.url, headers: [("Range", range.httpRange)], connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        // A server that ignores Range answers 200 with the file from its start: up to the index's end is enough.
        transfer = engine.load(request, maxBytes: range.offset + range.length) { [self] result in
            transfer = nil
            switch result {
            case .failure(let error) where error.kind == .tooLarge:
                done(SegmentFailure(message: "\(URLRedaction.redact(base.url)) answers the Range request for its segment index with "
                                    + "the whole file: SegmentBase needs a server that honours Range requests", isTransient: false))
            case .failure(let error):
                done(SegmentFailure(message: "the segment index of \(URLRedaction.redact(base.url)): \(error.message)",
                                    isTransient: error.isTransient))
            case .success(let response):
                var bytes = response.body
                if response.head.status != 206 {
                    guard bytes.count >= range.offset + range.length else {
                        return done(SegmentFailure(message: "\(URLRedaction.redact(base.url)) ends before its segment index (\(range.httpRange))",
                                                   isTransient: false))
                    }
                    bytes = bytes.subdata(in: range.offset..<range.offset + range.length)
                }
                do {
                    try timeline.addIndex(bytes, for: base)
                    loadIndexes(missing.dropFirst(), then: done)
                } catch {
                    done(SegmentFailure(message: "\(error)", isTransient: false))
                }
            }
        }
    }

    // MARK: The server's clock

    private func checkClock(of mpd: MPD, mpdHead: ResponseHead, requestedAt: Double, then done: @escaping @Sendable () -> Void) {
        guard mpd.type == .dynamic, clockCheckedAt.map({ requestedAt - $0 >= Self.clockCheckInterval }) ?? true else { return done() }
        clockCheckedAt = requestedAt
        ask(mpd.utcTimings[...], mpdReceivedAt: Date(), done: done)
    }

    /// Tries each UTCTiming in turn; with none that answers, this machine's clock stands.
    private func ask(_ timings: ArraySlice<MPD.UTCTiming>, mpdReceivedAt: Date, done: @escaping @Sendable () -> Void) {
        guard let timing = timings.first else {
            if !(mpd?.utcTimings.isEmpty ?? true), !warnedClock {
                warnedClock = true
                onWarning("no UTCTiming source of the MPD answered; using this machine's clock")
            }
            return done()
        }
        if timing.scheme == .direct {
            if let server = Timestamp.parse(timing.value) { clockOffset = server.timeIntervalSince(mpdReceivedAt) }
            return done()
        }
        guard let timeURL = try? PlaylistParser.absolute(timing.value, line: 0, base: URL(string: url)!, url: url) else {
            return ask(timings.dropFirst(), mpdReceivedAt: mpdReceivedAt, done: done)
        }
        let sentAt = Date()
        let request = TransferRequest(url: timeURL, connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        transfer = engine.load(request, maxBytes: 4096) { [self] result in
            transfer = nil
            let receivedAt = Date()
            let server: Date? = switch result {
            case .success(let response) where timing.scheme == .httpHead:
                response.head.headers["date"].flatMap(HTTPDate.date)
            case .success(let response):
                Timestamp.parse(String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            case .failure:
                nil
            }
            guard let server else { return ask(timings.dropFirst(), mpdReceivedAt: mpdReceivedAt, done: done) }
            // The server read its clock about halfway through the round trip.
            clockOffset = server.timeIntervalSince(sentAt.addingTimeInterval(receivedAt.timeIntervalSince(sentAt) / 2))
            done()
        }
    }
}
