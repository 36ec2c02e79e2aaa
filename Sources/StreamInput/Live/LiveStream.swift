import Foundation
import RadioModel

/// Settings of a live connection, ICY or HLS.
public struct LiveStreamOptions: Sendable {
    public var connectTimeout: Double = 10
    /// Seconds without a byte after which the connection counts as dead and is replaced.
    public var stallTimeout: Double = 15
    public var reconnect = ReconnectPolicy()
    /// Bytes buffered between network and demuxer before the transfer is paused.
    public var bufferBytes = 1 << 20
    /// Charset of titles that are not valid UTF-8 (from the station's catalogue entry).
    public var titleCharset: String?
    public var userAgent = TransferRequest.defaultUserAgent
    /// Variant choice if a URL turns out to be an HLS master playlist.
    public var quality: StreamQuality = .high
    /// HLS: start at this time on the stream's own clock (program-date-time) if the playlist's
    /// window still holds it — the back-fill of a late start. nil starts near the live edge.
    public var startAt: Date?

    public init() {}
}

/// A live Icecast/Shoutcast stream that keeps itself connected.
///
/// It connects straight to the first candidate URL: probing first would cost a second connection,
/// which is most of the time to the first sound. Should the server answer with a playlist, the
/// `StreamResolver` runs once on a thread of its own and the stream continues with its answer — or,
/// when the answer is HLS, hands over to whoever `onHLS` names (`LiveSource` starts an `HLSStream`). If a
/// candidate never connects, the next one is tried (a station's alternative streams).
///
/// It asks for in-band titles (`Icy-MetaData: 1`), strips the metadata blocks before the bytes reach
/// the demuxer, and reconnects with backoff when the server drops or stalls. Each connection is an
/// `IngestRun` that the media thread takes with `nextRun()`. All connection state lives on the
/// transfer engine's network thread; `nextRun` and `stop` are the only cross-thread entry points.
public final class LiveStream: IngestSource, TransferDelegate, @unchecked Sendable {  // connection state on the network thread only; runs handed over through `handover`
    /// Largest icy-metaint accepted; anything beyond is a broken or hostile server.
    public static let maxMetaint = 1 << 20
    /// Failures in a row of one URL, once the stream has played, after which its alternative is tried.
    public static let failoverAfter = 2

    /// URLs to try in order until one connects.
    public let candidates: [String]
    private let options: LiveStreamOptions
    private let engine: TransferEngine
    private let onEvent: @Sendable (StreamEvent) -> Void
    /// Takes over when a candidate turns out to be HLS; without it, that candidate fails.
    private let onHLS: (@Sendable (ResolvedStream) -> Void)?
    private let handover = RunHandover()

    // Network thread only.
    private var candidateIndex = 0
    /// The URL in use: a candidate, or what a playlist candidate resolved to.
    private var url: String
    private var resolvedPlaylist = false
    private var transfer: TransferID?
    private var run: IngestRun?
    private var deinterleaver: ICYDeinterleaver?
    private var runCount = 0
    private var everConnected = false
    private var failures = 0
    private var askForTitles = true
    private var lastTitle: String?
    private var lastAudioAt: Date?
    /// Why our side ended the current transfer, and whether retrying the same URL is pointless.
    private var pendingFailure: (reason: String, permanent: Bool)?
    private var pendingResolution = false

    public convenience init(url: String, options: LiveStreamOptions = LiveStreamOptions(), engine: TransferEngine = .shared,
                            onEvent: @escaping @Sendable (StreamEvent) -> Void) {
        self.init(candidates: [url], options: options, engine: engine, onEvent: onEvent)
    }

    /// `onHLS` runs (on the network thread) when a candidate resolves to an HLS stream; this stream
    /// then ends quietly, having handed over.
    public init(candidates: [String], options: LiveStreamOptions = LiveStreamOptions(), engine: TransferEngine = .shared,
                onEvent: @escaping @Sendable (StreamEvent) -> Void, onHLS: (@Sendable (ResolvedStream) -> Void)? = nil) {
        precondition(!candidates.isEmpty, "a live stream needs a URL")
        self.candidates = candidates; self.options = options; self.engine = engine; self.onEvent = onEvent
        self.onHLS = onHLS
        url = candidates[0]
    }

    public func start() {
        engine.schedule(after: 0) { [self] in connect() }
    }

    /// Blocks until the next connection delivers audio; nil once the stream has ended or was stopped.
    public func nextRun() -> IngestRun? {
        handover.next()
    }

    /// Ends the stream at once: buffered bytes are dropped, reads return end of stream, and
    /// `nextRun` returns nil.
    public func stop() {
        handover.stop()
        engine.schedule(after: 0) { [self] in
            if let transfer { engine.cancel(transfer) }
            transfer = nil
            run?.queue.close()
            run = nil
        }
    }

    private var isEnded: Bool { handover.isClosed }

    // MARK: Network thread

    private func connect() {
        guard !isEnded else { return }
        var headers: [(name: String, value: String)] = []
        if askForTitles { headers.append(("Icy-MetaData", "1")) }
        let request = TransferRequest(url: url, headers: headers, connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        pendingFailure = nil
        transfer = engine.start(request, delegate: self)
    }

    public func transfer(_ id: TransferID, didReceive head: ResponseHead) -> Bool {
        guard id == transfer else { return false }
        // A redirect's head arrives only when curl did not follow it: its error says why.
        if (300..<400).contains(head.status) { return true }
        if head.status != 200 {
            // 4xx will not heal by retrying the first connection; 5xx may.
            pendingFailure = ("HTTP \(head.status)", permanent: (400..<500).contains(head.status))
            return false
        }
        let playlist = PlaylistParser.isPlaylist(mediaType: head.mediaType, url: head.url, body: Data())
        if playlist && !resolvedPlaylist {
            pendingResolution = true
            return false
        }
        if playlist || AudioContentType.isNotAudio(head.mediaType) || head.mediaType?.hasPrefix("text/") == true {
            pendingFailure = ("not an audio stream (Content-Type \(head.mediaType ?? "none"))", permanent: true)
            return false
        }
        let info = ConnectionInfo(head: head)
        deinterleaver = nil
        if askForTitles, let raw = head.headers["icy-metaint"] {
            guard let metaint = info.metaint, (1...Self.maxMetaint).contains(metaint) else {
                // Blocks at an unknown spacing cannot be stripped: ask again for audio without titles.
                onEvent(.warning("server sent an unusable icy-metaint '\(raw)'; reconnecting without titles"))
                askForTitles = false
                pendingFailure = ("unusable icy-metaint", permanent: false)
                return false
            }
            deinterleaver = ICYDeinterleaver(metaint: metaint)
        }
        runCount += 1
        let queue = ByteQueue(capacity: options.bufferBytes)
        queue.setSpaceAvailableHandler { [engine] in engine.resume(id) }
        let gap = lastAudioAt.map { Gap(start: $0, seconds: Date().timeIntervalSince($0)) }
        let number = runCount
        let newRun = IngestRun(number: number, connection: info, queue: queue, precedingGap: gap, rejectHandler: { [self] reason in
            engine.schedule(after: 0) { [self] in self.reject(runNumber: number, reason: reason) }
        }, playingHandler: { [self] in
            // A connection that played is a recovery: the next drop starts the backoff afresh, however
            // soon it comes (the soak saw 30 s waits after connections that lived under 10 s).
            engine.schedule(after: 0) { [self] in if number == runCount { failures = 0 } }
        })
        run = newRun
        if !everConnected, options.startAt != nil {
            onEvent(.warning("an Icecast/Shoutcast stream cannot start in the past; playing it live"))
        }
        everConnected = true
        onEvent(.connected(info))
        handover.offer(newRun)
        return true
    }

    public func transfer(_ id: TransferID, didReceive bytes: UnsafeRawBufferPointer) -> Bool {
        guard id == transfer, let run else { return true }
        guard run.queue.hasRoom(for: bytes.count) else { return false }
        lastAudioAt = Date()
        guard var deinterleaver else {
            run.queue.append(bytes)
            return true
        }
        deinterleaver.consume(bytes, audio: { run.queue.append($0) }, metadata: { block, offset in
            let metadata = ICYMetadata(block: block, charset: options.titleCharset)
            guard let title = metadata.title, title != lastTitle else { return }
            lastTitle = title
            run.add(TitleChange(title: title, url: metadata.url, audioByteOffset: offset, details: metadata.details))
        })
        self.deinterleaver = deinterleaver
        return true
    }

    public func transfer(_ id: TransferID, didFinishWith error: TransferError?) {
        guard id == transfer else { return }
        transfer = nil
        if pendingResolution {
            pendingResolution = false
            resolvePlaylist()
            return
        }
        // Our own abort shows up as a cancelled transfer; curl's error is the better reason otherwise.
        let curlError = error?.kind == .cancelled ? nil : error
        let reason = curlError?.message ?? pendingFailure?.reason ?? "the server ended the stream"
        let permanent = curlError.map { !$0.isTransient } ?? pendingFailure?.permanent ?? false
        endRun(reason: reason, permanent: permanent)
    }

    /// The URL served a playlist: resolve it off the network thread (the resolver fetches and blocks).
    private func resolvePlaylist() {
        resolvedPlaylist = true
        let playlistURL = url
        let resolver = StreamResolver(engine: engine, quality: options.quality)
        let thread = Thread { [self] in
            let outcome = Result { try resolver.resolve(playlistURL) }
            engine.schedule(after: 0) { [self] in
                switch outcome {
                case .success(let resolved) where resolved.kind == .icy:
                    url = resolved.url
                    connect()
                case .success(let resolved):
                    guard let onHLS, !isEnded else {
                        let kind = resolved.kind == .dash ? "an MPEG-DASH" : "an HLS"
                        return endRun(reason: "\(URLRedaction.redact(resolved.url)) is \(kind) stream, not an Icecast/Shoutcast one",
                                      permanent: true)
                    }
                    onHLS(resolved)
                    handover.finish()
                case .failure(let error):
                    endRun(reason: "\(error)", permanent: true)
                }
            }
        }
        thread.name = "onair-resolve"
        thread.start()
    }

    private func reject(runNumber: Int, reason: String) {
        guard runNumber == runCount, let transfer else { return }
        engine.cancel(transfer)
        self.transfer = nil
        endRun(reason: reason, permanent: false)
    }

    /// After the stream has played, the alternatives are used too: a URL a playlist led to that keeps
    /// failing, or is refused (a per-listener URL expired), sends us back to the playlist, whose entries
    /// are tried in order again; a station's stream that keeps failing gives way to its next one.
    private func failOver(reason: String, permanent: Bool) {
        let candidate = candidates[candidateIndex]
        if url != candidate, permanent || failures >= Self.failoverAfter {
            onEvent(.warning("\(URLRedaction.redact(url)): \(reason); resolving \(URLRedaction.redact(candidate)) again"))
            url = candidate
        } else if url == candidate, candidates.count > 1, failures >= Self.failoverAfter {
            candidateIndex = (candidateIndex + 1) % candidates.count
            url = candidates[candidateIndex]
            onEvent(.warning("\(URLRedaction.redact(candidate)): \(reason); trying the station's next stream"))
        }
        // At a candidate, a playlist is resolved afresh (an earlier resolution may have failed).
        if url == candidates[candidateIndex] { resolvedPlaylist = false }
    }

    private func endRun(reason: String, permanent: Bool) {
        run?.queue.finish()
        run = nil
        guard !isEnded else { return }
        failures += 1
        let giveUp: Bool
        if !everConnected {
            giveUp = permanent || failures >= options.reconnect.initialAttempts
        } else {
            onEvent(.disconnected(reason: reason))
            giveUp = options.reconnect.maxConsecutiveFailures.map { failures > $0 } ?? false
        }
        if giveUp && !everConnected && candidateIndex + 1 < candidates.count {
            onEvent(.warning("\(URLRedaction.redact(url)): \(reason); trying the next stream"))
            candidateIndex += 1
            url = candidates[candidateIndex]
            resolvedPlaylist = false
            failures = 0
            connect()
            return
        }
        if giveUp {
            onEvent(.failed("\(URLRedaction.redact(url)): \(reason)"))
            handover.finish()
            return
        }
        if everConnected { failOver(reason: reason, permanent: permanent) }
        let delay = options.reconnect.delay(attempt: failures, unit: Double.random(in: 0..<1))
        onEvent(.reconnecting(attempt: failures, delay: delay))
        engine.schedule(after: delay) { [self] in connect() }
    }
}
