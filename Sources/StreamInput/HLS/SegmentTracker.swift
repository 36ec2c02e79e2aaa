import Foundation

/// Audio that will never arrive: segments that expired before they could be fetched, or that the
/// server refused for good. Consecutive losses merge into one.
struct MissingAudio: Equatable {
    var sequences: ClosedRange<Int>
    var seconds: Double
    /// Where the loss begins on the stream's own clock, if the playlist has program-date-times.
    var programDateTime: Date?

    mutating func merge(_ later: MissingAudio) {
        sequences = sequences.lowerBound...later.sequences.upperBound
        seconds += later.seconds
        programDateTime = programDateTime ?? later.programDateTime
    }
}

/// The media-sequence bookkeeping of the HLS follower: where to start, which segment comes next,
/// and which sequence numbers were lost. Pure state, so every rule is testable without a network.
///
/// Every segment a playlist listed is remembered until it is fetched or given up, even after a
/// reload no longer lists it: a server usually keeps a segment a little after it leaves the
/// playlist, so one last try is worth it after a stall.
struct SegmentTracker {
    /// Segments seen and not yet handled, in sequence order.
    private(set) var pending: [MediaSegment] = []
    /// The sequence number wanted next: everything before it was fetched or given up.
    private(set) var nextSequence = 0
    /// The latest playlist's sequence range: what the server still offers.
    private(set) var listed = 0..<0
    private(set) var targetDuration = 1.0
    private(set) var endList = false
    /// The last segment fetched or given up, for placing a loss in time.
    private var previous: MediaSegment?

    /// Picks the first segment of `playlist`: the one holding `startAt` on the stream's clock if the
    /// window still has it, else `liveEdgeDistance` target durations from the live edge (RFC 8216
    /// §6.3.3), or the very first of a finished playlist. Returns a warning when `startAt` could not be honoured.
    mutating func begin(_ playlist: MediaPlaylist, startAt: Date?, liveEdgeDistance: Double) -> String? {
        var warning: String?
        var index = playlist.endList ? 0 : Self.liveEdgeIndex(playlist, distance: liveEdgeDistance)
        if let startAt {
            let dated = playlist.segments.enumerated().filter { $0.element.programDateTime != nil }
            if let first = dated.first, let last = dated.last {
                let lastEnd = last.element.programDateTime!.addingTimeInterval(last.element.duration)
                if startAt < first.element.programDateTime! {
                    index = first.offset
                    let late = first.element.programDateTime!.timeIntervalSince(startAt)
                    warning = String(format: "the playlist's window begins %.1f s after the requested start; starting there", late)
                } else if startAt >= lastEnd {
                    warning = "the requested start is not in the playlist yet; starting near the live edge"
                } else {
                    index = dated.last { $0.element.programDateTime! <= startAt }!.offset
                }
            } else {
                warning = "the playlist has no EXT-X-PROGRAM-DATE-TIME, so it cannot start at a given time; starting near the live edge"
            }
        }
        pending = Array(playlist.segments[index...])
        nextSequence = playlist.mediaSequence + index
        previous = index > 0 ? playlist.segments[index - 1] : nil
        take(playlist)
        return warning
    }

    /// The latest segment that starts at least `distance` target durations before the playlist's end.
    static func liveEdgeIndex(_ playlist: MediaPlaylist, distance: Double) -> Int {
        var remaining = 0.0
        for index in playlist.segments.indices.reversed() {
            remaining += playlist.segments[index].duration
            if remaining >= distance * playlist.targetDuration - 0.001 { return index }
        }
        return 0
    }

    /// What a reload changed.
    enum Update: Equatable {
        case followed
        /// The playlist lies a whole window behind what was already fetched: the server started
        /// counting afresh. Following restarts near its live edge.
        case restarted
    }

    /// Takes in a reloaded playlist: remembers the segments it adds.
    mutating func update(_ playlist: MediaPlaylist, liveEdgeDistance: Double) -> Update {
        if playlist.endSequence + playlist.segments.count < nextSequence {
            _ = begin(playlist, startAt: nil, liveEdgeDistance: liveEdgeDistance)
            return .restarted
        }
        let known = max(nextSequence, pending.last.map { $0.sequence + 1 } ?? 0)
        // Segments still to fetch are taken as this playlist lists them: after a switch to a backup
        // variant or a freshly resolved per-listener URL, the old URLs may no longer answer.
        let relisted = Dictionary(playlist.segments.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        pending = pending.map { relisted[$0.sequence] ?? $0 }
        pending += playlist.segments.filter { $0.sequence >= known }
        take(playlist)
        return .followed
    }

    private mutating func take(_ playlist: MediaPlaylist) {
        listed = playlist.mediaSequence..<playlist.endSequence
        targetDuration = playlist.targetDuration
        endList = playlist.endList
    }

    /// The segment to fetch next, and the sequence numbers that vanished before it without ever
    /// being listed (a jump in the playlist). Taking a hole moves past it.
    mutating func next() -> (segment: MediaSegment, hole: MissingAudio?)? {
        guard let segment = pending.first else { return nil }
        guard segment.sequence > nextSequence else { return (segment, nil) }
        let hole = missing(nextSequence...segment.sequence - 1, before: segment)
        nextSequence = segment.sequence
        return (segment, hole)
    }

    /// The segment `next` returned arrived. False if it is no longer wanted: the server restarted
    /// its numbering while it was being fetched.
    mutating func fetched(_ segment: MediaSegment) -> Bool {
        advance(past: segment)
    }

    /// The segment `next` returned is given up; what is lost with it (nil if no longer wanted).
    mutating func giveUp(_ segment: MediaSegment) -> MissingAudio? {
        guard advance(past: segment) else { return nil }
        return MissingAudio(sequences: segment.sequence...segment.sequence, seconds: segment.duration,
                            programDateTime: segment.programDateTime)
    }

    /// Whether the latest playlist still lists a sequence number.
    func isListed(_ sequence: Int) -> Bool { listed.contains(sequence) }

    /// Nothing more will come: the playlist ended and every segment was handled.
    var isFinished: Bool { endList && pending.isEmpty }

    private mutating func advance(past segment: MediaSegment) -> Bool {
        guard pending.first == segment else { return false }
        pending.removeFirst()
        nextSequence = segment.sequence + 1
        previous = segment
        return true
    }

    /// Segments never seen: their length from the program-date-times around them when both sides
    /// have one, else a target duration each.
    private func missing(_ sequences: ClosedRange<Int>, before next: MediaSegment) -> MissingAudio {
        let estimate = Double(sequences.count) * targetDuration
        guard let previous, let start = previous.programDateTime.map({ $0.addingTimeInterval(previous.duration) }) else {
            return MissingAudio(sequences: sequences, seconds: estimate, programDateTime: nil)
        }
        guard let end = next.programDateTime, !next.discontinuity else {
            return MissingAudio(sequences: sequences, seconds: estimate, programDateTime: start)
        }
        return MissingAudio(sequences: sequences, seconds: max(0, end.timeIntervalSince(start)), programDateTime: start)
    }
}
