import Foundation

/// A live MPD seen the way the segment follower sees an HLS media playlist: the segments available
/// right now, numbered in one sequence across periods and server restarts, each with its wall-clock
/// time on the presentation timeline (availabilityStartTime + period start + segment time).
///
/// Pure state: the MPD and the clock come in, a `MediaPlaylist` goes out, so every rule is testable
/// without a network. Sequence numbers are the template's `$Number$` for the first period seen; a
/// period seen later continues the sequence from the latest segment before it, leaving out as many
/// numbers as segments fit in the time between them — an ad break's period follows on without a
/// hole, a server restarted after an outage leaves one as long as the outage, counted by segment.
public struct DASHTimeline {
    /// At most this many segments are listed: enough for an hour of 2-second segments.
    public static let maxListedSegments = 2000
    /// Seconds after a segment's availability time before it is asked for: encoders rename a finished
    /// segment into place a little after its end on the clock.
    static let availabilitySlack = 0.5

    public var quality: StreamQuality
    /// Period key → what is added to its `$Number$` to make a sequence number.
    private var sequenceBases: [String: Int] = [:]
    private var keyOrder: [String] = []
    /// The latest segment listed so far: its sequence number and the wall-clock time of its end.
    private var latest: (sequence: Int, end: Date)?
    /// The `sidx` boxes read for SegmentBase representations, by file and index range.
    private var segmentIndexes: [MPD.SegmentBase.IndexKey: SegmentIndex] = [:]
    /// At most this many indexes are kept (each may list `SegmentIndex.maxReferences` segments).
    static let maxSegmentIndexes = 16

    public init(quality: StreamQuality) { self.quality = quality }

    /// What `playlist` found besides the segments.
    public struct Listing: Sendable, Equatable {
        public var playlist: MediaPlaylist
        /// The chosen representation's bandwidth in the newest period, bit/s.
        public var bandwidth: Int?
        /// The content type its segments have, from the MPD.
        public var mimeType: String?
        public var codec: String?
        /// A dynamic MPD that lists nothing because every segment it describes has left the time-shift
        /// buffer: when the last of them ended. nil while anything may still come (an open-ended period).
        public var lastSegmentEnded: Date?
    }

    /// The segments `mpd` makes available at `now` (this machine's clock corrected by the server's).
    public mutating func playlist(_ mpd: MPD, now: Date) throws -> Listing {
        let origin = mpd.availabilityStartTime ?? Date(timeIntervalSince1970: 0)
        let dynamic = mpd.type == .dynamic
        let presentationNow = now.timeIntervalSince(origin)
        let depth = mpd.timeShiftBufferDepth ?? .infinity
        var listed: [MediaSegment] = []
        var chosen: MPD.Representation?
        var maxDuration = 0.0
        var periodStart = 0.0
        /// The end of everything the MPD describes, in presentation seconds; nil once something is open-ended.
        var describedEnd: Double? = -.infinity
        for (position, period) in mpd.periods.enumerated() {
            periodStart = period.start ?? periodStart
            let nextStart = mpd.periods.dropFirst(position + 1).first?.start
            let periodEnd = period.duration.map { periodStart + $0 } ?? nextStart
                ?? (position == mpd.periods.count - 1 ? mpd.mediaPresentationDuration : nil)
            defer { periodStart = periodEnd ?? periodStart }
            guard periodStart.isFinite else { break }
            guard let representation = choose(from: period.representations) else { continue }
            chosen = representation
            // A SegmentBase representation lists nothing until its index has been read (`addIndex`).
            guard let template = representation.template ?? representation.segmentBase.flatMap({ base in
                segmentIndexes[base.indexKey]?.template(url: base.url, base: base)
            }) else { continue }
            let expansion = SegmentTemplateExpansion(template: template, representation: representation,
                                                     periodStart: periodStart, periodEnd: periodEnd)
            let earliest = dynamic ? presentationNow - depth : -.infinity
            // A segment fetched early is complete only when the MPD says so (low-latency chunking).
            let early = template.availabilityTimeComplete ? min(template.availabilityTimeOffset, 10) : 0
            let latestEnd = dynamic ? presentationNow + early - Self.availabilitySlack : .infinity
            if !dynamic, periodEnd == nil, template.timeline == nil, template.listed == nil { continue }
            let segments = try expansion.segments(earliestEnd: earliest, latestEnd: latestEnd, limit: Self.maxListedSegments)
            if let end = describedEnd {
                describedEnd = try expansion.lastSegmentEnd().map { max(end, $0) }
            }
            guard let first = segments.first else { continue }
            let key = "\(origin.timeIntervalSince1970)|\(period.id ?? "")|\(periodStart)|\(representation.id)"
            let base = sequenceBase(for: key, first: first, origin: origin)
            let initSection = try expansion.initializationURL().map {
                InitSection(url: $0, byteRange: template.initializationRange, encryption: nil)
            }
            for segment in segments {
                maxDuration = max(maxDuration, segment.duration)
                listed.append(MediaSegment(sequence: base &+ segment.number, url: segment.url, duration: segment.duration,
                                           byteRange: segment.byteRange, discontinuity: false,
                                           programDateTime: origin.addingTimeInterval(segment.start), encryption: nil,
                                           initSection: initSection))
            }
            if let last = listed.last, latest.map({ $0.sequence < last.sequence }) ?? true {
                self.latest = (last.sequence, last.programDateTime!.addingTimeInterval(last.duration))
            }
        }
        if chosen == nil, let refusal = mpd.periods.lazy.flatMap(\.representations).compactMap(\.refusal).first {
            throw PlaylistError(url: mpd.url, line: nil, message: refusal)
        }
        // Only the newest unbroken run: older segments an MPD still lists across a hole are not worth waiting for.
        if let breakIndex = listed.indices.dropFirst().last(where: { listed[$0].sequence != listed[$0 - 1].sequence &+ 1 }) {
            listed.removeFirst(breakIndex)
        }
        if listed.count > Self.maxListedSegments { listed.removeFirst(listed.count - Self.maxListedSegments) }
        let target = max(maxDuration, mpd.maxSegmentDuration ?? 0, 0.1)
        let playlist = MediaPlaylist(url: mpd.url, targetDuration: target, mediaSequence: listed.first?.sequence ?? 0,
                                     discontinuitySequence: 0, segments: listed, endList: !dynamic)
        let expired = dynamic && listed.isEmpty && describedEnd.map { $0.isFinite && $0 < presentationNow - depth } == true
        return Listing(playlist: playlist, bandwidth: chosen.map(\.bandwidth).flatMap { $0 > 0 ? $0 : nil },
                       mimeType: chosen?.mimeType,
                       codec: chosen?.codecs.flatMap { $0.split(separator: ",").lazy.compactMap { HLSCodecs.name(forTag: String($0)) }.first },
                       lastSegmentEnded: expired ? describedEnd.map { origin.addingTimeInterval($0) } : nil)
    }

    /// The SegmentBase indexes the representations to follow need and have not had: read each with
    /// a Range request and hand it to `addIndex`.
    public func missingIndexes(_ mpd: MPD) -> [MPD.SegmentBase] {
        var missing: [MPD.SegmentBase] = []
        for period in mpd.periods {
            guard let base = choose(from: period.representations)?.segmentBase, segmentIndexes[base.indexKey] == nil,
                  !missing.contains(where: { $0.indexKey == base.indexKey }) else { continue }
            missing.append(base)
        }
        return Array(missing.prefix(Self.maxSegmentIndexes))
    }

    /// Reads the `sidx` box fetched for `base` (the bytes of its indexRange).
    public mutating func addIndex(_ data: Data, for base: MPD.SegmentBase) throws {
        if segmentIndexes.count >= Self.maxSegmentIndexes { segmentIndexes.removeAll() }
        segmentIndexes[base.indexKey] = try SegmentIndex.parse(data, fileOffset: base.indexRange.offset, url: base.url)
    }

    /// The audio representation to follow: highest or lowest bandwidth, ties broken by qualityRanking.
    func choose(from representations: [MPD.Representation]) -> MPD.Representation? {
        let usable = representations.filter { $0.refusal == nil && ($0.template != nil || $0.segmentBase != nil) }
        let sorted = usable.sorted {
            ($0.bandwidth, -($0.qualityRanking ?? 0)) < ($1.bandwidth, -($1.qualityRanking ?? 0))
        }
        return quality == .high ? sorted.last : sorted.first
    }

    private mutating func sequenceBase(for key: String, first: DASHSegment, origin: Date) -> Int {
        if let base = sequenceBases[key] { return base }
        var base = 0
        if let latest {
            let start = origin.addingTimeInterval(first.start)
            let missing = first.duration > 0 ? max(0, SegmentTemplateExpansion.index((start.timeIntervalSince(latest.end) / first.duration).rounded())) : 0
            base = latest.sequence &+ 1 &+ missing &- first.number
        }
        sequenceBases[key] = base
        keyOrder.append(key)
        if keyOrder.count > 64 { sequenceBases[keyOrder.removeFirst()] = nil }
        return base
    }
}
