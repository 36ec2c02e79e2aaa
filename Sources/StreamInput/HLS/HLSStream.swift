import Foundation
import RadioModel

/// A live HLS stream followed by onair itself (RFC 8216 §6.3), never dropped and never silently skipped.
///
/// It reloads the media playlist at the pace the RFC sets (a target duration after a change, half
/// of one after none), tracks segments by media sequence number, and fetches each one once, in
/// order, retrying while the playlist still lists it. After an outage it carries on from the next
/// segment it has not fetched, so an outage shorter than the playlist's window loses nothing; what
/// did expire, or what the server refused for good, is a gap with its sequence numbers, length and
/// program-date-time. A discontinuity, a new init section or a gap starts a new `IngestRun`, so the
/// demuxer and decoder start afresh; an fMP4 run begins with its init section.
///
/// A broadcaster's alternatives are used: the variants of a master are tried in turn (a backup of the
/// same bandwidth first) at the start and whenever the one in use keeps failing; and a per-listener URL
/// that expires (403, 404 or 410 where it worked) is replaced by resolving the station's first URL again,
/// the segments missed meanwhile counted as a gap.
///
/// A live MPEG-DASH presentation is followed the same way (`format: .dash`): a `DASHManifest` turns
/// the MPD and the presentation clock into the playlist this follower reloads, and the segments,
/// runs, gaps and program-date-times go through the very same paths as HLS fMP4 with EXT-X-MAP.
///
/// Every piece of state lives on the transfer engine's network thread: playlists, keys and segments
/// are engine transfers whose completions run there. A segment goes into the run's byte queue only
/// when the queue has room, and the next one is fetched only after that, so nothing is fetched far ahead.
public final class HLSStream: IngestSource, @unchecked Sendable {  // follower state on the network thread only; runs handed over through `handover`
    /// Target durations to stay behind the live edge at the start (RFC 8216 §6.3.3).
    public static let liveEdgeDistance = 3.0
    /// Attempts at a segment the server refuses (4xx) while its playlist still lists it.
    static let segmentAttempts = 3
    /// Master playlists followed to reach a media playlist.
    private static let maxMasterHops = 2
    /// Playlist failures in a row after which the next variant is tried.
    static let failoverAfter = 2
    /// What a server answers once a per-listener (tokenised) URL has expired.
    static let expiredStatuses: Set<Int> = [403, 404, 410]
    /// Undecodable runs within this many seconds of each other count as a row.
    private static let rejectWindow = 10.0
    private static let maxRejectsInARow = 3

    public let url: String
    private let options: LiveStreamOptions
    private let engine: TransferEngine
    private let onEvent: @Sendable (StreamEvent) -> Void
    private let handover = RunHandover()

    // Network thread only.
    private let loader: SegmentLoader
    /// For DASH, the MPD seen as a media playlist; nil for HLS.
    private let dash: DASHManifest?
    private var playlistURL: String
    private var masterHops = 0
    /// Bit/s of the variant chosen from a master playlist.
    private var bandwidth: Int?
    /// The master's variants in the order to try them, and the one in use.
    private var alternatives: [HLSVariant] = []
    /// The master's EXT-X-DEFINE variables, which the media playlist may IMPORT.
    private var masterVariables: [String: String]
    private var alternativeIndex = 0
    /// The station's first URL is being resolved again (an expired URL): a master is welcome once more.
    private var reresolving = false
    /// Resolved again, and nothing has worked since: the next expiry waits for a backoff first.
    private var reresolvedWithoutSuccess = false
    private var tracker = SegmentTracker()
    private var following = false
    private var playlistTransfer: TransferID?
    private var lastPlaylistBody: Data?
    /// DASH: the sequence number after the last segment listed, to tell a changed listing.
    private var lastDASHEnd: Int?
    private var lastChange = TransferEngine.now()
    private var warnedStale = false
    private var consecutiveFailures = 0
    private var everConnected = false
    /// Set from the first failure of an outage until audio flows again.
    private var disconnected = false
    /// A segment is being fetched, or waits for a retry.
    private var segmentBusy = false
    private var segmentAttempt = 0
    /// Segments given up one after another since audio last arrived.
    private var skippedInARow = 0
    /// Fetched, waiting for room in the queue.
    private var waiting: LoadedSegment?
    private var run: IngestRun?
    private var runBytes: Int64 = 0
    private var runInitSection: InitSection?
    private var runCount = 0
    private var startNewRun = true
    private var lost: MissingAudio?
    private var lastDeliveredAt: Date?
    private var lastTitle: String?
    private var rejectsInARow = 0
    private var lastRejectAt = -Double.infinity

    /// For HLS, `url` is a media playlist, or a master playlist whose variant `options.quality` picks;
    /// for DASH, an MPD whose audio representation `options.quality` picks.
    /// `masterVariables`: when `url` is a variant of a master playlist, the master's EXT-X-DEFINE variables.
    public init(url: String, format: SegmentedFormat = .hls, masterVariables: [String: String] = [:],
                options: LiveStreamOptions = LiveStreamOptions(), engine: TransferEngine = .shared,
                onEvent: @escaping @Sendable (StreamEvent) -> Void) {
        self.url = url; self.options = options; self.engine = engine; self.onEvent = onEvent
        self.masterVariables = masterVariables
        playlistURL = url
        loader = SegmentLoader(engine: engine, options: options)
        dash = format == .dash ? DASHManifest(url: url, engine: engine, options: options) { onEvent(.warning($0)) } : nil
    }

    public func start() {
        engine.schedule(after: 0) { [self] in reload() }
    }

    public func nextRun() -> IngestRun? {
        handover.next()
    }

    public func stop() {
        handover.stop()
        engine.schedule(after: 0) { [self] in
            if let playlistTransfer { engine.cancel(playlistTransfer) }
            playlistTransfer = nil
            dash?.cancel()
            loader.cancel()
            run?.queue.close()
            run = nil
            waiting = nil
        }
    }

    private var isClosed: Bool { handover.isClosed }

    // MARK: Playlist (network thread)

    private func reload() {
        guard !isClosed else { return }
        let startedAt = TransferEngine.now()
        if let dash { return reloadMPD(dash, startedAt: startedAt) }
        let request = TransferRequest(url: playlistURL, connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        playlistTransfer = engine.load(request, maxBytes: PlaylistParser.maxBytes) { [self] result in
            playlistTransfer = nil
            guard !isClosed else { return }
            switch result {
            case .success(let response): playlistLoaded(response, startedAt: startedAt)
            case .failure(let error): playlistFailed(error.message, permanent: !error.isTransient, status: error.status)
            }
        }
    }

    private func playlistLoaded(_ response: HTTPResponse, startedAt: Double) {
        let content: PlaylistContent
        do {
            content = try PlaylistParser.parse(response.body, url: response.head.url, importing: masterVariables)
        } catch {
            // A playlist caught half-written heals on the next reload; one that never parsed will not.
            guard following else { return fail("\(error)") }
            return playlistFailed("\(error)", permanent: false)
        }
        switch content {
        case .hlsMedia(let playlist):
            follow(playlist, changed: response.body != lastPlaylistBody, startedAt: startedAt)
            lastPlaylistBody = response.body
        case .hlsMaster(let variants) where (!following || reresolving) && masterHops < Self.maxMasterHops:
            masterHops += 1
            alternatives = StreamResolver(engine: engine, quality: options.quality).ranked(variants)
            use(alternative: 0)
            reload()
        case .hlsMaster, .entries:
            fail("\(URLRedaction.redact(response.head.url)) is not an HLS media playlist")
        }
    }

    private func reloadMPD(_ dash: DASHManifest, startedAt: Double) {
        dash.refresh { [self] result in
            guard !isClosed else { return }
            switch result {
            case .success(let update) where update.listing.playlist.segments.isEmpty && !update.listing.playlist.endList:
                // Nothing available yet (a period or a restarted server not yet one segment in): not a restart.
                if !following && !warnedStale {
                    warnedStale = true
                    onEvent(.warning("\(URLRedaction.redact(url)): no segment is available yet by the MPD's clock; waiting"))
                }
                engine.schedule(after: update.nextRefresh) { [self] in reload() }
            case .success(let update):
                let playlist = update.listing.playlist
                bandwidth = update.listing.bandwidth
                follow(playlist, changed: playlist.endSequence != lastDASHEnd, startedAt: startedAt, nextReload: update.nextRefresh)
                lastDASHEnd = playlist.endSequence
            case .failure(let failure):
                guard following || failure.isTransient else { return fail(failure.message) }
                playlistFailed(failure.message, permanent: !failure.isTransient)
            }
        }
    }

    /// `nextReload` overrides RFC 8216's pacing (DASH: when the next segment becomes available).
    private func follow(_ playlist: MediaPlaylist, changed: Bool, startedAt: Double, nextReload: Double? = nil) {
        consecutiveFailures = 0
        reresolving = false
        if !following {
            following = true
            let distance = dash?.liveEdgeDistance(default: Self.liveEdgeDistance, segmentDuration: playlist.targetDuration)
                ?? Self.liveEdgeDistance
            if let warning = tracker.begin(playlist, startAt: options.startAt, liveEdgeDistance: distance) {
                onEvent(.warning(warning))
            }
        } else if tracker.update(playlist, liveEdgeDistance: Self.liveEdgeDistance) == .restarted {
            onEvent(.warning("the playlist's media sequence went back to \(playlist.mediaSequence): the server restarted; following its live edge"))
            startNewRun = true
        }
        let now = TransferEngine.now()
        if changed {
            lastChange = now
            warnedStale = false
        } else if !warnedStale, now - lastChange > 3 * playlist.targetDuration {
            warnedStale = true
            onEvent(.warning(String(format: "the playlist has not changed for %.0f s", now - lastChange)))
        }
        pumpSegments()
        guard !playlist.endList else { return }
        // RFC 8216 §6.3.4, timed from when this load began.
        let interval = nextReload ?? (changed ? playlist.targetDuration : playlist.targetDuration / 2)
        engine.schedule(after: max(0, interval - (now - startedAt))) { [self] in reload() }
    }

    private func playlistFailed(_ reason: String, permanent: Bool, status: Int? = nil) {
        let name = URLRedaction.redact(playlistURL)
        if following, let status, Self.expiredStatuses.contains(status) {
            return resolveAgain(after: "\(name): \(reason)")
        }
        // At the start, a variant that fails gives way to the next at once (they are all untried).
        if !following, alternativeIndex + 1 < alternatives.count {
            onEvent(.warning("\(name): \(reason); trying the next variant"))
            use(alternative: alternativeIndex + 1)
            return reload()
        }
        let giveUp = registerFailure(reason, permanent: permanent && !following)
        guard !giveUp else { return }
        if following, alternatives.count > 1, consecutiveFailures >= Self.failoverAfter {
            use(alternative: (alternativeIndex + 1) % alternatives.count)
            onEvent(.warning("\(name): \(reason); switching to the variant \(URLRedaction.redact(playlistURL))"))
            return reload()
        }
        let delay = retryDelay()
        if everConnected { onEvent(.reconnecting(attempt: consecutiveFailures, delay: delay)) }
        engine.schedule(after: delay) { [self] in reload() }
    }

    private func use(alternative index: Int) {
        alternativeIndex = index
        let chosen = alternatives[index]
        playlistURL = chosen.url
        masterVariables = chosen.masterVariables
        bandwidth = chosen.bandwidth > 0 ? chosen.bandwidth : nil
    }

    /// A URL that worked is refused as expired: per-listener URLs (tokens, session ids) are handed out
    /// by the station's first URL, so that is asked again. If the last fresh URL never worked, wait a
    /// backoff before asking once more.
    private func resolveAgain(after reason: String) {
        let again = reresolvedWithoutSuccess
        reresolvedWithoutSuccess = true
        if again {
            guard !registerFailure(reason, permanent: false) else { return }
        } else {
            onEvent(.warning("\(reason): the URL expired; resolving \(URLRedaction.redact(url)) again"))
        }
        engine.schedule(after: again ? retryDelay() : 0) { [self] in
            playlistURL = url
            masterHops = 0
            reresolving = true
            reload()
        }
    }

    // MARK: Segments (network thread)

    private func pumpSegments() {
        guard !isClosed, following, !segmentBusy, waiting == nil else { return }
        guard let (segment, hole) = tracker.next() else {
            if tracker.isFinished { finish() }
            return
        }
        if let hole { lose(hole) }
        segmentBusy = true
        loader.load(segment) { [self] result in
            guard !isClosed else { return }
            switch result {
            case .success(let loaded): segmentArrived(loaded)
            case .failure(let failure): segmentFailed(segment, failure)
            }
        }
    }

    private func segmentArrived(_ loaded: LoadedSegment) {
        segmentBusy = false
        segmentAttempt = 0
        skippedInARow = 0
        consecutiveFailures = 0
        reresolvedWithoutSuccess = false
        // Fetched before the server restarted its numbering: the stream continues from its new live edge.
        guard tracker.fetched(loaded.segment) else { return pumpSegments() }
        if !everConnected || disconnected {
            everConnected = true
            disconnected = false
            onEvent(.connected(connectionInfo(for: loaded)))
        }
        waiting = loaded
        deliverWaiting()
    }

    private func segmentFailed(_ segment: MediaSegment, _ failure: SegmentFailure) {
        segmentAttempt += 1
        dash?.segmentFailed()
        let stillListed = tracker.isListed(segment.sequence)
        let name = "segment \(segment.sequence) (\(URLRedaction.redact(segment.url)))"
        if everConnected, !reresolvedWithoutSuccess, let status = failure.status, Self.expiredStatuses.contains(status) {
            // Segments of an expired per-listener URL: fresh ones come with a fresh playlist, and the
            // tracker fetches this segment again from it if its window still holds it (this try counts
            // as one of its attempts).
            segmentBusy = false
            return resolveAgain(after: "\(name): \(failure.message)")
        }
        if failure.isTransient && stillListed {
            // An outage: keep trying for as long as the playlist offers the segment.
            guard !registerFailure("\(name): \(failure.message)", permanent: false) else { return }
        } else if !failure.isTransient && stillListed && dash?.mayStillBePublished(segment) == true {
            // DASH lists segments by the clock: one refused near its availability time is most likely
            // not written yet (an encoder a little behind, clocks apart), so it is asked for again quietly.
        } else if !failure.isTransient && stillListed && segmentAttempt < Self.segmentAttempts {
            onEvent(.warning("\(name): \(failure.message); trying again"))
        } else {
            onEvent(.warning("\(name): \(failure.message); skipped"))
            segmentAttempt = 0
            segmentBusy = false
            if let missing = tracker.giveUp(segment) { lose(missing) }
            // Once audio has flowed, one segment given up is a hole in the stream (its gap says so); given up one
            // after another they are an outage, counted from the second like any failure (so `--max-reconnects`
            // ends it) and across playlist reloads, which reset the count of failed fetches.
            skippedInARow += 1
            let outage = skippedInARow - (everConnected ? 1 : 0)
            if outage > 0 {
                consecutiveFailures = max(consecutiveFailures, outage - 1)
                if registerFailure("\(name): \(failure.message)", permanent: false) { return }
            }
            return pumpSegments()
        }
        engine.schedule(after: retryDelay()) { [self] in
            segmentBusy = false
            pumpSegments()
        }
    }

    /// Audio that will never come: it becomes the gap in front of the next run.
    private func lose(_ missing: MissingAudio) {
        if lost == nil { lost = missing } else { lost!.merge(missing) }
        startNewRun = true
    }

    /// Puts the waiting segment into the run's queue if it has room; else the queue calls back when it has.
    private func deliverWaiting() {
        guard !isClosed, let loaded = waiting else { return }
        let segment = loaded.segment
        if run == nil || startNewRun || segment.discontinuity || segment.initSection != runInitSection {
            beginRun(with: loaded)
        } else if !run!.queue.hasRoom(for: loaded.payload.count) {
            return
        }
        guard let run else { return }
        if runBytes == 0, let initSection = loaded.initSection {
            append(initSection, to: run)
        }
        if let date = segment.programDateTime {
            run.add(ProgramDateTime(date: date, byteOffset: runBytes, sequence: segment.sequence))
        }
        if let tag = ID3Tag.combined(loaded.tags), let title = tag.nowPlaying, title != lastTitle {
            lastTitle = title
            run.add(TitleChange(title: title, url: tag.url, audioByteOffset: runBytes, programDateTime: segment.programDateTime))
        }
        append(loaded.payload, to: run)
        waiting = nil
        lastDeliveredAt = Date()
        pumpSegments()
    }

    private func append(_ data: Data, to run: IngestRun) {
        data.withUnsafeBytes { run.queue.append($0) }
        runBytes += Int64(data.count)
    }

    private func beginRun(with loaded: LoadedSegment) {
        run?.queue.finish()
        runCount += 1
        let number = runCount
        let queue = ByteQueue(capacity: options.bufferBytes)
        queue.setSpaceAvailableHandler { [self] in engine.schedule(after: 0) { [self] in deliverWaiting() } }
        let info = connectionInfo(for: loaded)
        let gap = lost.map { missing in
            Gap(start: lastDeliveredAt ?? Date(), seconds: missing.seconds, missingSequences: missing.sequences,
                programDateTime: missing.programDateTime)
        }
        let newRun = IngestRun(number: number, connection: info, queue: queue, precedingGap: gap) { [self] reason in
            engine.schedule(after: 0) { [self] in reject(runNumber: number, reason: reason) }
        }
        lost = nil
        run = newRun
        runBytes = 0
        runInitSection = loaded.segment.initSection
        startNewRun = false
        handover.offer(newRun)
    }

    private func connectionInfo(for loaded: LoadedSegment) -> ConnectionInfo {
        ConnectionInfo(playlistURL: playlistURL, segmentHead: loaded.head, contentType: loaded.contentType,
                       bitrate: bandwidth.map { $0 / 1000 })
    }

    /// The consumer could not decode a run: carry on with a fresh run from the next segment,
    /// unless runs keep failing (the segments are not audio it can play).
    private func reject(runNumber: Int, reason: String) {
        guard runNumber == runCount, !isClosed else { return }
        let now = TransferEngine.now()
        rejectsInARow = now - lastRejectAt < Self.rejectWindow ? rejectsInARow + 1 : 1
        lastRejectAt = now
        guard rejectsInARow < Self.maxRejectsInARow else {
            return fail("\(URLRedaction.redact(playlistURL)): segments cannot be decoded (\(reason))")
        }
        run?.queue.finish()
        startNewRun = true
        // A segment waiting for room in the abandoned queue would wait for ever: it starts the new run.
        deliverWaiting()
    }

    // MARK: Failures and the end (network thread)

    /// Counts a failure; reports the start of an outage; gives up when the policy says so. Returns true when given up.
    private func registerFailure(_ reason: String, permanent: Bool) -> Bool {
        consecutiveFailures += 1
        let giveUp: Bool
        if !everConnected {
            giveUp = permanent || consecutiveFailures >= options.reconnect.initialAttempts
        } else {
            if !disconnected {
                disconnected = true
                onEvent(.disconnected(reason: reason))
            }
            giveUp = options.reconnect.maxConsecutiveFailures.map { consecutiveFailures > $0 } ?? false
        }
        if giveUp { fail(everConnected ? reason : "\(URLRedaction.redact(playlistURL)): \(reason)") }
        return giveUp
    }

    /// Backoff, but never longer than a target duration: the playlist's window must not slide past
    /// the next segment while waiting.
    private func retryDelay() -> Double {
        min(options.reconnect.delay(attempt: max(1, consecutiveFailures), unit: Double.random(in: 0..<1)),
            tracker.targetDuration)
    }

    private func fail(_ message: String) {
        onEvent(.failed(message))
        finish()
    }

    private func finish() {
        run?.queue.finish()
        run = nil
        handover.finish()
    }
}

/// What a segmented stream's index is written in.
public enum SegmentedFormat: Sendable {
    /// An HLS playlist (RFC 8216).
    case hls
    /// An MPEG-DASH MPD (ISO/IEC 23009-1).
    case dash
}
