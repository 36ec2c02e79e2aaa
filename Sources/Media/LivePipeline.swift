import CFFmpeg
import Foundation
import RadioModel
import StreamInput

/// One live station decoded once and fanned out as PCM to every attached consumer.
///
/// Every event the pipeline makes (decoding, titles, gaps, clock marks, a consumer's failure) goes
/// to `onEvent` first — the owner's own bookkeeping, such as a wall clock — and then to every
/// `EventConsumer` attached; the source's own events join them through `publish`.
///
/// The decode loop runs on a thread of its own: `av_read_frame` blocks on the ingest queue, and
/// blocking work never runs on Swift's cooperative pool. FFmpeg handles never leave that thread.
public final class LivePipeline: @unchecked Sendable {  // `stopping` and the media clock in `state`; FFmpeg objects on the decode thread only
    public let format: PCMFormat
    public let fanOut: StreamFanOut
    /// Bytes, seconds and the level of the audio, as the decode thread passes it on.
    public let meter: StationMeter
    private let source: IngestSource
    private let observer: @Sendable (StreamEvent) -> Void
    private let stopAfterFrames: Int64?
    /// Undecodable packets in a row after which a connection is judged useless and replaced.
    private let maxBadPacketsInARow = 64

    private let finished = FinishLine()
    private struct State {
        var stopping = false
        /// Media time so far, in frames of `format`: decoded audio handed on, or — while nobody takes
        /// PCM and nothing is decoded — the durations of the packets passed on.
        var mediaFrames: Int64 = 0
        /// Copy mode: the part of an output frame the packets so far have not filled.
        var frameRemainder = 0.0
    }
    private let state = Locked(State())
    /// Decode thread only: the last title found inside the stream (they repeat on every reconnect).
    private var lastInStreamTitle: String?
    /// Decode thread only: the last program-date-time reported, the anchor that later media times
    /// are put on the stream's wall clock from.
    private var clock: ProgramDateTime?
    /// How far a segment's program-date-time may stray from the anchor's extrapolation before it is
    /// reported as a new anchor: AAC frames alone make tens of milliseconds of jitter.
    private let clockTolerance = 0.1
    /// Decode thread only: the run the anchor was taken in, and audio this pipeline already reported
    /// lost since (undecodable packets). Within one run the clock only jumps forward where audio
    /// vanished: a segment that came as a good reply but held nothing decodable.
    private var clockRun: ObjectIdentifier?
    private var reportedLossSinceAnchor = 0.0
    /// A forward jump of the stream's clock shorter than this is a server's rounding, not lost audio.
    private let smallestClockGap = 0.5
    /// While nobody takes PCM nor waits for an instant (`ArrivalTimedConsumer`), how long the decode
    /// thread lets audio gather before it reads it: copies go to files and to listeners who hold
    /// seconds of audio, and a wall clock extrapolated by media time from its anchor is not moved by
    /// when the thread got to a frame (`ByteQueue.readerPatience`).
    static let copyReaderPatience = 0.5
    /// Seconds a packet may last, as a stream declares it.
    static let longestPacket = 10.0

    /// `stopAfter` ends the pipeline after exactly that many seconds of audio reached the consumers.
    /// With `endsWhenConsumersFail`, a consumer failure that leaves none taking the audio ends it too
    /// (a one-off relay or recording, whose report still listens to events); without, it keeps the
    /// station flowing for consumers that attach later.
    /// A `meter` that measures a level makes the pipeline decode even when nobody takes PCM (a window of
    /// each second of a copied Layer III stream, `LevelSampling`).
    public init(source: IngestSource, format: PCMFormat, stopAfter seconds: Double? = nil,
                endsWhenConsumersFail: Bool = false, meter: StationMeter = StationMeter(),
                onEvent: @escaping @Sendable (StreamEvent) -> Void = { _ in }) {
        self.source = source
        self.format = format
        self.meter = meter
        self.observer = onEvent
        stopAfterFrames = seconds.map { Int64(($0 * Double(format.sampleRate)).rounded()) }
        let failures = ConsumerFailureHandler(stopSource: endsWhenConsumersFail ? source : nil)
        fanOut = StreamFanOut(onFailure: failures.handle)
        failures.pipeline = self
    }

    /// Tells the owner and every event consumer: the pipeline's own events, and the source's.
    public func publish(_ event: StreamEvent) {
        observer(event)
        fanOut.publish(event)
    }

    /// Seconds of audio delivered so far.
    public var mediaTime: Double {
        state.withLock { Double($0.mediaFrames) / Double(format.sampleRate) }
    }

    public func start() {
        source.start()
        let thread = Thread { [self] in
            decodeLoop()
            finished.cross()
        }
        thread.name = "onair-decode"
        thread.start()
    }

    /// Stops the stream; consumers are finished once the decode thread has wound down.
    public func stop() {
        state.withLock { $0.stopping = true }
        source.stop()
    }

    /// Blocks until the stream has ended (stopped, duration reached, or upstream gave up).
    public func waitUntilFinished() {
        finished.wait()
    }

    /// Waits at most `timeout` seconds for the stream to end; true once it has.
    public func waitUntilFinished(timeout: Double) -> Bool {
        finished.wait(timeout: timeout)
    }

    // MARK: Decode thread

    private func decodeLoop() {
        defer { fanOut.finishAll() }
        let packet: OwnedPacket, frame: OwnedFrame
        do {
            (packet, frame) = (try OwnedPacket(), try OwnedFrame())
        } catch {
            publish(.failed("cannot allocate decoder buffers"))
            return
        }
        let resampler = Resampler(format: format)
        while !limitReached, let run = source.nextRun() {
            if var gap = run.precedingGap {
                gap.mediaTime = mediaTime
                publish(.gap(gap))
            }
            do {
                try decode(run, packet: packet.pointer, frame: frame.pointer, resampler: resampler)
            } catch {
                if !isStopping {
                    publish(.warning("\(run.connection.url): \(error)"))
                    run.reject(reason: "\(error)")
                }
            }
            emit(run.takeAllTitles())
        }
        if limitReached { source.stop() }
    }

    private func decode(_ run: IngestRun, packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>,
                        resampler: Resampler) throws {
        let contentType = run.connection.contentType
        let demuxer = try Demuxer(queue: run.queue, hint: AudioContentType.demuxerHint(for: contentType), mimeType: contentType)
        let decoder = try AudioDecoder(stream: demuxer.stream)
        let parameters = demuxer.stream.pointee.codecpar.pointee
        let encoded = try EncodedFormat(copying: demuxer.stream.pointee.codecpar, timeBase: demuxer.stream.pointee.time_base)
        fanOut.begin(encoded)
        var announced = false
        var confirmed = false
        let runStart = mediaTime
        var badPackets = 0
        // Copies of Layer III frames decode only what the level needs: the decoder may have missed frames.
        var levelSampling = LevelSampling()
        var decoderFollows = true
        // Audio the decoder rejected since the last good packet: a gap in what consumers get.
        var rejected: (seconds: Double, since: Date)?
        let handleFrame: (UnsafeMutablePointer<AVFrame>) throws -> Void = { [self] decoded in
            if !announced {
                announced = true
                let bitrate = decoder.bitRate > 0 ? Int(decoder.bitRate) : (parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil)
                publish(.decoding(codec: decoder.codecName, sampleRate: Int(decoded.pointee.sample_rate),
                                  channels: Int(decoded.pointee.ch_layout.nb_channels), bitrate: bitrate))
            }
            try resampler.convert(decoded) { self.deliver($0) }
        }
        // Parsers split a container packet into frames and give only the first its byte position;
        // the rest share it (an MPEG-TS PES holds about a third of a second, and HLS segments start
        // a fresh one), which places marks far better than the bytes read ahead so far.
        var lastPosition: Int64?
        var readerIsPatient = false
        while !limitReached, let payload = try demuxer.read(into: packet) {
            defer { av_packet_unref(packet) }
            let position = packet.pointee.pos >= 0 ? packet.pointee.pos : lastPosition ?? run.queue.bytesRead
            lastPosition = position
            let vanished = place(run.takeProgramDateTimes(upTo: position), run: ObjectIdentifier(run), unreportedLoss: rejected?.seconds ?? 0)
            if vanished > 0 {
                // One loss, one gap: with the undecodable packets before it, if any. Reported now: a
                // stream copy that decodes nothing would never report it with the next good packet.
                reportGap(seconds: vanished + (rejected?.seconds ?? 0), since: rejected?.since ?? Date(timeIntervalSinceNow: -vanished))
                rejected = nil
            }
            emit(run.takeTitles(upTo: position))
            if !confirmed, mediaTime - runStart >= IngestRun.playingAfterSeconds {
                confirmed = true
                run.confirmPlaying()
            }
            if case .timedID3 = payload {
                emitTimedID3(packet, position: position)
                continue
            }
            if let title = demuxer.takeInStreamTitle() {
                emitInStream(TitleChange(title: title, url: nil, audioByteOffset: position))
            }
            // The first packets of an MPEG-TS run (those read while probing) come without a duration;
            // each is one codec frame, and without it the media clock, and every program-date-time
            // placed by it, would lag by a PES (a third of a second).
            if packet.pointee.duration <= 0, parameters.frame_size > 0, parameters.sample_rate > 0 {
                packet.pointee.duration = av_rescale_q(Int64(parameters.frame_size), AVRational(num: 1, den: parameters.sample_rate),
                                                       demuxer.stream.pointee.time_base)
            }
            var copy = EncodedPacket(packet: packet, timeBase: encoded.timeBase)
            let bytes = UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
            let framing = FrameIntegrity.isComplete(bytes, demuxer: demuxer.formatName)
            // A copy's time is its nominal frame length (the packet's rounded duration would drift). Both come from the
            // stream: a length no packet has (the longest codec frames last about a second) is no length, and the packet is
            // decoded to learn it, rather than moving the clock by years and overflowing it.
            let declared = parameters.frame_size > 0 && parameters.sample_rate > 0
                ? Double(parameters.frame_size) / Double(parameters.sample_rate) : copy.duration
            let copyDuration = declared.isFinite && declared <= Self.longestPacket ? declared : 0
            let wantsPCM = fanOut.wantsPCM
            if readerIsPatient == fanOut.wantsPromptAudio {
                readerIsPatient.toggle()
                run.queue.readerPatience = readerIsPatient ? Self.copyReaderPatience : 0
            }
            meter.notePacket(size: bytes.count)
            // Raw MP3/ADTS frames carry no checksum: a frame garbled upstream is only found by the
            // decoder rejecting it, and a frame the decoder rejects never reaches a file. A Layer III
            // frame's side information tells that without decoding it; other frames are decoded. A
            // packet whose length nothing tells is decoded as well, to learn it; and so is every packet
            // no check applies to when the meter measures the level (dead-air alerts). A frame found
            // incomplete stays undecoded: left out of the copy, not reported as a gap.
            let sideInformation = wantsPCM || framing != true || copyDuration <= 0 || demuxer.formatName != "mp3"
                ? nil : FrameIntegrity.layerIIIDecoderAccepts(bytes)
            guard wantsPCM || framing == true || copyDuration <= 0 || (meter.measuresLevel && framing == nil) else {
                // Nobody listens to PCM: no decoding, the frames' nominal lengths keep the time.
                if framing != false { fanOut.deliver(copy) }
                advanceClock(by: copyDuration)
                meter.noteReceived(seconds: copyDuration)
                continue
            }
            do {
                // fMP4 fragments of one frame each (FFmpeg's DASH with -streaming) give packets no
                // duration: the decoded samples tell it, so copies and the media clock still move on.
                var decodedSeconds = 0.0
                if let accepted = sideInformation {
                    guard accepted else { throw MediaError("an MP3 frame whose side information the decoder rejects") }
                    let step = meter.measuresLevel ? levelSampling.step(seconds: copyDuration, mainDataBytes: FrameIntegrity.layerIIIMainDataLength(bytes)) : .skip
                    decoderFollows = step != .skip && (decoderFollows || step == .prime(flushFirst: true))
                    try measureLevel(step, decoder: decoder, packet: packet, frame: frame, sampling: &levelSampling)
                } else {
                    if !decoderFollows {
                        decoder.flush()
                        decoderFollows = true
                    }
                    levelSampling.restart()
                    try decoder.decode(packet, frame: frame) { decoded in
                        decodedSeconds += Double(decoded.pointee.nb_samples) / Double(max(1, decoded.pointee.sample_rate))
                        meter.measure(decoded)
                        if wantsPCM { try handleFrame(decoded) }
                    }
                }
                meter.noteReceived(seconds: copyDuration > 0 ? copyDuration : decodedSeconds)
                if packet.pointee.duration <= 0, decodedSeconds > 0 {
                    let timeBase = demuxer.stream.pointee.time_base
                    packet.pointee.duration = Int64((decodedSeconds * Double(timeBase.den) / Double(max(1, timeBase.num))).rounded())
                    copy = EncodedPacket(packet: packet, timeBase: encoded.timeBase)
                }
                badPackets = 0
                if let gap = rejected {
                    rejected = nil
                    reportGap(seconds: gap.seconds, since: gap.since)
                }
                if framing != false { fanOut.deliver(copy) }
                if !wantsPCM { advanceClock(by: copyDuration > 0 ? copyDuration : min(decodedSeconds, Self.longestPacket)) }
            } catch {
                badPackets += 1
                rejected = ((rejected?.seconds ?? 0) + copyDuration, rejected?.since ?? Date())
                if badPackets >= maxBadPacketsInARow {
                    throw MediaError("\(badPackets) undecodable packets in a row (\(error))")
                }
            }
        }
        guard !limitReached else { return }
        try decoder.decode(nil, frame: frame, body: handleFrame)
        try resampler.drain { deliver($0) }
    }

    /// Decodes a copied frame as `LevelSampling` asks, for the level alone.
    private func measureLevel(_ step: LevelSampling.Step, decoder: AudioDecoder, packet: UnsafeMutablePointer<AVPacket>,
                              frame: UnsafeMutablePointer<AVFrame>, sampling: inout LevelSampling) throws {
        switch step {
        case .skip:
            return
        case .prime(let flushFirst):
            if flushFirst { decoder.flush() }
            try decoder.decode(packet, frame: frame) { meter.countDecoded($0) }
        case .measure(let last):
            try decoder.decode(packet, frame: frame) { decoded in
                meter.countDecoded(decoded)
                sampling.note(quiet: meter.isQuiet(decoded))
            }
            if last {
                let (level, microseconds) = sampling.verdict()
                meter.credit(level, microseconds: microseconds)
            }
        }
    }

    /// Audio that never reached the consumers, at the current media time. Where it begins on the stream's
    /// clock is where the audio before it ended: the anchor's extrapolation plus the losses reported since
    /// (after a jump, the new anchor less what this gap holds).
    private func reportGap(seconds: Double, since: Date) {
        let begins = programDateTime(atMediaTime: mediaTime)?.addingTimeInterval(reportedLossSinceAnchor)
        reportedLossSinceAnchor += seconds
        publish(.gap(Gap(start: since, seconds: seconds, mediaTime: mediaTime, programDateTime: begins)))
    }

    private func emit(_ titles: [TitleChange]) {
        for var title in titles {
            title.mediaTime = mediaTime
            title.programDateTime = title.programDateTime ?? programDateTime(atMediaTime: mediaTime)
            publish(.metadata(title))
            fanOut.deliver(title)
        }
    }

    /// A title from inside the stream, once when it is new (it repeats on every reconnect and in every HLS segment).
    private func emitInStream(_ title: TitleChange) {
        guard title.title != lastInStreamTitle else { return }
        lastInStreamTitle = title.title
        emit([title])
    }

    /// Timed ID3 (TIT2/TPE1/TXXX) in a packet of its own, as HLS stations send titles in MPEG-TS.
    private func emitTimedID3(_ packet: UnsafeMutablePointer<AVPacket>, position: Int64) {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return }
        let tags = ID3Tag.timedMetadataTags(in: UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
        guard let tag = ID3Tag.combined(tags), let title = tag.nowPlaying else { return }
        emitInStream(TitleChange(title: title, url: tag.url, audioByteOffset: position))
    }

    /// Puts segments' program-date-times on the media timeline, reporting those that do not follow
    /// from the last one reported (the first, and any after a gap, a discontinuity or drift).
    ///
    /// Within one run (the HLS follower starts a new one at every discontinuity and after every gap
    /// it knows of), a clock that jumps ahead means audio that never decoded — a segment of garbage
    /// served as a good reply. Returns those seconds, less what undecodable packets account for,
    /// for the caller to report as a gap with them.
    private func place(_ marks: [ProgramDateTime], run: ObjectIdentifier, unreportedLoss: Double) -> Double {
        var vanished = 0.0
        for var mark in marks {
            mark.mediaTime = mediaTime
            let expected = programDateTime(atMediaTime: mediaTime)
            if let expected, abs(expected.timeIntervalSince(mark.date)) <= clockTolerance {
                continue
            }
            if let expected, clockRun == run {
                let missing = mark.date.timeIntervalSince(expected) - reportedLossSinceAnchor - unreportedLoss - vanished
                if missing >= smallestClockGap { vanished += missing }
            }
            clock = mark
            clockRun = run
            // What is still to be reported belongs before this anchor: it is counted when reported.
            reportedLossSinceAnchor = -(unreportedLoss + vanished)
            publish(.programDateTime(mark))
        }
        return vanished
    }

    /// The stream's wall-clock time at a media time, extrapolated from the last anchor.
    private func programDateTime(atMediaTime time: Double) -> Date? {
        guard let clock, let anchor = clock.mediaTime else { return nil }
        return clock.date.addingTimeInterval(time - anchor)
    }

    /// Passes PCM on, cut to the frame where the requested duration ends.
    private func deliver(_ pcm: UnsafeRawBufferPointer) {
        let frames = Int64(pcm.count / format.bytesPerFrame)
        let allowed = state.withLock { (state) -> Int64 in
            let allowed = stopAfterFrames.map { min(frames, max(0, $0 - state.mediaFrames)) } ?? frames
            state.mediaFrames += allowed
            return allowed
        }
        guard allowed > 0 else { return }
        fanOut.deliver(UnsafeRawBufferPointer(rebasing: pcm[0..<Int(allowed) * format.bytesPerFrame]))
    }

    /// Moves the media time on by a packet's length. The fraction of an output frame left over is
    /// carried to the next packet: rounding each one (1024 samples at 44.1 kHz are 1114.6 frames at
    /// 48 kHz) would make the clock drift by milliseconds a minute.
    private func advanceClock(by seconds: Double) {
        state.withLock { state in
            let exact = seconds * Double(format.sampleRate) + state.frameRemainder
            let whole = exact.rounded(.down)
            state.frameRemainder = exact - whole
            state.mediaFrames += Int64(whole)
        }
    }

    private var limitReached: Bool {
        state.withLock { state in stopAfterFrames.map { state.mediaFrames >= $0 } ?? false }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }
}

/// Reports a failed consumer and, for a one-off pipeline, ends the stream once nobody is left.
private final class ConsumerFailureHandler: @unchecked Sendable {  // immutable but for `pipeline`, set once before the stream starts
    private let stopSource: IngestSource?
    weak var pipeline: LivePipeline?

    init(stopSource: IngestSource?) {
        self.stopSource = stopSource
    }

    func handle(_ consumer: StreamConsumer, _ error: Error) {
        pipeline?.publish(.consumerFailed(label: consumer.label, reason: "\(error)"))
        if let stopSource, pipeline?.fanOut.takesAudio == false { stopSource.stop() }
    }
}
