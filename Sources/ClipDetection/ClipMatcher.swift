/// One airing of a clip found in a station's items: where in the stream it began, which part of the clip aired
/// (all of it, or what was left of it when it was cut or joined late), and how alike the two were.
public struct ClipMatch: Sendable, Equatable {
    public let clip: ReferenceClip
    /// Seconds from the start of the matcher's first item to where the aired part began (a learned song's: where the
    /// song began, before the seconds its clip leaves out).
    public let streamSeconds: Double
    /// Seconds into the clip where the aired part begins: 0 unless it was joined after its start.
    public let clipOffset: Double
    /// Seconds that aired (a learned song's, with the seconds its clip leaves out at the ends that aired).
    public let airedSeconds: Double
    /// 1 − the share of differing bits over the aired part: near 1 for the same audio (a little less where the
    /// stream's item grid falls between the clip's), about 0.5 for unrelated audio.
    public let score: Double

    /// Whether only part of the clip aired.
    public let isPartial: Bool
}

/// A clip heard beginning, while it is still on: where the aired part began, as the airing's `ClipMatch` will say
/// once it has ended. A recording split into tracks cuts here.
public struct ClipBeginning: Sendable, Equatable {
    public let clip: ReferenceClip
    /// Seconds from the start of the matcher's first item to where the aired part began.
    public let streamSeconds: Double
    /// Seconds into the clip where the aired part begins: 0 unless it was joined after its start.
    public let clipOffset: Double
    /// Seconds from the aired part's start to the clip's end, if it airs to its end (a learned song's, to the song's).
    public let seconds: Double
}

/// Finds the clips of an index in one station's fingerprint items as they arrive. Each item votes, through the
/// index, for the clips and alignments it could belong to; an alignment with enough votes is checked item by
/// item (the share of differing bits), and once it holds it is followed to the clip's end, or until the items
/// stop agreeing (the clip was cut short), and then reported once with the part that aired. Not Sendable: one
/// station's detection thread owns it.
public struct ClipMatcher {
    /// Where an item's agreement turns, in seconds from its start, when the audio changes under it: an item
    /// agrees with the clip once the aired part began `leadIn` after it, and until it ends `lookahead` after it
    /// (Chromaprint's frames and filters reach both ways; measured on the tests' audio at half the bits differing).
    static let leadIn = 0.6
    static let lookahead = 1.5
    /// Items alike below this share of differing bits are the same audio; unrelated audio differs in about half,
    /// and the same audio a few items off its alignment in about 0.3 (music repeats itself from beat to beat).
    static let sameAudio = 0.3
    /// Votes before an alignment is checked, and items it must hold over to count as found.
    static let votesToCheck = 3
    static let itemsToConfirm = 16
    /// The latest items an alignment is judged by (4 s).
    static let judgedItems = 32
    /// Items a match must have aired to be reported (about 3 s), or the whole clip if it is shorter.
    static let fewestItems = 24
    /// The lowest score reported: an airing of the clip scores 0.9 or more after a re-encoding at 64 kbit/s and a loudness
    /// change, while a few seconds of another recording that sounds alike (two orchestral passages) reached 0.76
    /// (BENCHMARKS.md, airplay).
    static let lowestScore = 0.85
    /// Items after an airing is first followed within which its beginning is told (3 s): later, it is told whole at its
    /// end only (a track splitter holds only so much audio back). A beginning is told once the aired part is long and alike enough to be reported (`fewestItems`,
    /// `lowestScore`) and still on.
    static let beginningWithin = 24
    /// Offsets this close (a second) count as one alignment: votes come from near offsets too, where the music
    /// repeats itself; the best of them is found by comparing every item.
    static let jitter = 8

    public private(set) var index: ClipIndex
    private var stream: [UInt32] = []
    /// The absolute number of the first item in `stream`.
    private var base = 0
    private var candidates: [Alignment: Candidate] = [:]
    private var followed: [Alignment] = []
    /// Followed airings whose beginning is not told yet, with the item at which they were first followed.
    private var untold: [Alignment: Int] = [:]
    /// Beginnings heard and not yet taken.
    private var beginnings: [ClipBeginning] = []
    /// Airings reported, kept while votes from them may still come.
    private var reported: [Alignment] = []

    struct Alignment: Hashable {
        let clip: Int
        /// The stream item where the clip's item 0 is (or would be, if it aired from its start).
        let offset: Int
    }

    struct Candidate {
        var votes: Int
        var lastVote: Int
    }

    public init(index: ClipIndex) {
        self.index = index
    }

    /// The absolute number of the next item.
    public var itemCount: Int { base + stream.count }

    /// Takes the station's next items; returns the airings they completed.
    public mutating func append(_ items: [UInt32]) -> [ClipMatch] {
        var found: [ClipMatch] = []
        for value in items {
            let now = itemCount
            stream.append(value)
            index.forEachHit(value) { clip, item in vote(for: Alignment(clip: clip, offset: now - item), at: now) }
            found += settle(at: now, ending: false)
            if now % 256 == 255 { forgetOld(at: now) }
        }
        return found
    }

    /// The beginnings of airings heard since the last call, in order: each airing's once, a few seconds into it.
    public mutating func takeBeginnings() -> [ClipBeginning] {
        defer { beginnings = [] }
        return beginnings
    }

    /// Goes on with `newIndex` (the library changed): the airings followed, the candidates and the airings reported stay
    /// with their clips where the new index has them (by id), those of removed clips are dropped, and the station's items
    /// stay, so an airing under way is neither lost nor told twice.
    public mutating func use(_ newIndex: ClipIndex) {
        let position = Dictionary(newIndex.clips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let clips = index.clips
        func moved(_ alignment: Alignment) -> Alignment? {
            position[clips[alignment.clip].id].map { Alignment(clip: $0, offset: alignment.offset) }
        }
        candidates = Dictionary(candidates.compactMap { key, value in moved(key).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
        followed = followed.compactMap(moved)
        untold = Dictionary(untold.compactMap { key, value in moved(key).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
        reported = reported.compactMap(moved)
        index = newIndex
    }

    /// The stream ended: the airings still being followed, as far as they went.
    public mutating func finish() -> [ClipMatch] {
        settle(at: itemCount - 1, ending: true)
    }

    // MARK: Voting

    private mutating func vote(for alignment: Alignment, at now: Int) {
        // Votes from an airing being followed, or from one reported (near its offset: the same clip restarted
        // later is another airing), are not a new one.
        guard !followed.contains(where: { $0.clip == alignment.clip && abs($0.offset - alignment.offset) < clipItems(alignment.clip) }),
              !reported.contains(where: { $0.clip == alignment.clip && abs($0.offset - alignment.offset) <= 2 * Self.jitter })
        else { return }
        let key = (-Self.jitter...Self.jitter).lazy.map { Alignment(clip: alignment.clip, offset: alignment.offset + $0) }
            .first { candidates[$0] != nil } ?? alignment
        var candidate = candidates[key] ?? Candidate(votes: 0, lastVote: now)
        candidate.votes += 1
        candidate.lastVote = now
        candidates[key] = candidate
        guard candidate.votes >= Self.votesToCheck, let best = bestAlignment(near: key, at: now) else { return }
        followed.append(best)
        untold[best] = now
        candidates[key] = nil
    }

    /// While a clip is followed, votes for it anywhere within its length are the same airing.
    private func clipItems(_ clip: Int) -> Int { index.clips[clip].fingerprint.items.count }

    /// The offset near `key` whose items agree best with the clip, compared over the latest stream items all of
    /// them cover (an earlier offset must not win by having more items so far; a clip joined late must not be
    /// judged by the audio before it), if they agree over enough items.
    private func bestAlignment(near key: Alignment, at now: Int) -> Alignment? {
        let shifts = (-Self.jitter...Self.jitter).map { Alignment(clip: key.clip, offset: key.offset + $0) }
        let common = max(shifts.map(\.offset).max()!, now - Self.judgedItems + 1)
        let rated = shifts.map { ($0, bitErrorRate($0, from: common, through: now)) }
        guard let best = rated.min(by: { $0.1.rate < $1.1.rate }), best.1.items >= Self.itemsToConfirm, best.1.rate < Self.sameAudio else {
            return nil
        }
        return best.0
    }

    // MARK: Following

    /// Reports the followed airings that ended at `now`: the clip's last item has come, the items stopped
    /// agreeing for a while (cut short), or the stream ended.
    private mutating func settle(at now: Int, ending: Bool) -> [ClipMatch] {
        guard !followed.isEmpty else { return [] }
        var found: [ClipMatch] = []
        var following: [Alignment] = []
        for alignment in followed {
            let clipItems = index.clips[alignment.clip].fingerprint.items.count
            guard ending || now >= alignment.offset + clipItems - 1 || stoppedAgreeing(alignment, at: now) else {
                following.append(alignment)
                tellBeginning(of: alignment, at: now)
                continue
            }
            untold[alignment] = nil
            let refined = bestAlignment(near: alignment, at: now) ?? alignment
            if let match = airedPart(of: refined, through: now) { found.append(match) }
            reported.append(refined)
            // Votes from this airing that are still to come must not start it again.
            candidates = candidates.filter { $0.key.clip != alignment.clip || abs($0.key.offset - alignment.offset) > clipItems }
        }
        followed = following
        return found
    }

    /// Tells the beginning of a followed airing not told yet, once its aired part would be reported and is still on,
    /// if that comes within `beginningWithin` items of when it was first followed.
    private mutating func tellBeginning(of alignment: Alignment, at now: Int) {
        guard let since = untold[alignment] else { return }
        // Still on: the aired part (whose end is placed `lookahead` past its last agreeing item) reaches the latest items.
        if let part = airedPart(of: alignment, through: now), part.streamSeconds + part.airedSeconds > Double(now) * Fingerprint.itemSeconds {
            let rest = part.clip.seconds - part.clipOffset + (part.clip.learned ? TrackLearner.edge : 0)
            let lead = part.clipOffset == 0 ? Double(alignment.offset) * Fingerprint.itemSeconds - part.streamSeconds : 0
            beginnings.append(ClipBeginning(clip: part.clip, streamSeconds: part.streamSeconds, clipOffset: part.clipOffset, seconds: rest + lead))
            untold[alignment] = nil
        } else if now - since > Self.beginningWithin {
            untold[alignment] = nil
        }
    }

    /// Whether the last two seconds of items of a followed clip stopped agreeing (another audio is on now).
    private func stoppedAgreeing(_ alignment: Alignment, at now: Int) -> Bool {
        let window = 16
        guard now - alignment.offset >= window else { return false }
        let (rate, count) = bitErrorRate(alignment, from: now - window + 1, through: now)
        return count == window && rate > 0.45
    }

    /// The share of differing bits between the clip and the stream items `first…last` where they overlap, and over how many items.
    private func bitErrorRate(_ alignment: Alignment, from first: Int, through last: Int) -> (rate: Double, items: Int) {
        let clip = index.clips[alignment.clip].fingerprint.items
        let from = max(first, alignment.offset, base), to = min(last, alignment.offset + clip.count - 1)
        guard from <= to else { return (1, 0) }
        return (Fingerprint.bitErrorRate(stream[(from - base)...(to - base)], clip[(from - alignment.offset)...(to - alignment.offset)]),
                to - from + 1)
    }

    /// The longest run of the clip's items that agree with the stream (smoothed over a few items, so a burst of
    /// noise inside an airing does not split it), if it is long enough to report.
    private func airedPart(of alignment: Alignment, through now: Int) -> ClipMatch? {
        let reference = index.clips[alignment.clip]
        let clip = reference.fingerprint.items
        let first = max(alignment.offset, base), last = min(now, alignment.offset + clip.count - 1)
        guard first <= last else { return nil }
        let errors = (first...last).map { Fingerprint.differingBits(stream[$0 - base], clip[$0 - alignment.offset]) }
        let half = 4
        // First the items alike at all; then, for the edges, those past halfway from how alike the aired items are
        // to how unlike unrelated ones are (16 of 32 bits), which is where an item's agreement turns.
        guard let alike = Self.longestRun(errors, below: Self.sameAudio * 32, smoothing: half) else { return nil }
        let typical = errors[alike].sorted()[alike.count / 2]
        guard let run = Self.longestRun(errors, below: min(Self.sameAudio * 32, (Double(typical) + 16) / 2), smoothing: half),
              run.count >= min(Self.fewestItems, clip.count) else { return nil }
        // A run reaching the clip's first or last item (within the smoothing) aired from its start or to its end;
        // elsewhere the aired part's edge is where the items' agreement turned.
        let firstItem = first - alignment.offset + run.lowerBound, lastItem = first - alignment.offset + run.upperBound - 1
        let clipOffset = firstItem <= half ? 0 : Double(firstItem) * Fingerprint.itemSeconds + Self.leadIn
        let clipEnd = lastItem >= clip.count - 1 - half ? reference.seconds : min(reference.seconds, Double(lastItem) * Fingerprint.itemSeconds + Self.lookahead)
        let rate = Double(errors[run].reduce(0, +)) / Double(run.count * 32)
        guard 1 - rate >= Self.lowestScore else { return nil }
        let start = Double(alignment.offset) * Fingerprint.itemSeconds + clipOffset
        // A learned song's clip leaves out the song's first and last seconds: aired from the clip's start (or to its
        // end), the song began (or ends) that much before (or after).
        let lead = reference.learned && clipOffset == 0 ? min(TrackLearner.edge, start) : 0
        let trail = reference.learned && clipEnd == reference.seconds ? TrackLearner.edge : 0
        return ClipMatch(clip: reference, streamSeconds: start - lead, clipOffset: clipOffset,
                         airedSeconds: clipEnd - clipOffset + lead + trail, score: 1 - rate,
                         isPartial: clipOffset > 0 || clipEnd < reference.seconds)
    }

    /// The longest run of items whose differing bits, averaged over `smoothing` items either side (so a burst of
    /// noise inside an airing does not split it), stay below `limit`.
    static func longestRun(_ errors: [Int], below limit: Double, smoothing half: Int) -> Range<Int>? {
        var best: Range<Int>?
        var start: Int?
        var sum = 0, lower = 0, upper = -1
        for position in 0...errors.count {
            var agrees = false
            if position < errors.count {
                while upper < min(errors.count - 1, position + half) { upper += 1; sum += errors[upper] }
                while lower < position - half { sum -= errors[lower]; lower += 1 }
                agrees = Double(sum) / Double(upper - lower + 1) < limit
            }
            if agrees { start = start ?? position; continue }
            if let begun = start, best == nil || position - begun > best!.count { best = begun..<position }
            start = nil
        }
        return best
    }

    /// Drops the items no alignment can reach any more, and the candidates whose airing would have ended.
    private mutating func forgetOld(at now: Int) {
        let horizon = now - index.longest - 32
        let clips = index.clips
        candidates = candidates.filter { $0.value.lastVote >= now - clips[$0.key.clip].fingerprint.items.count - 32 }
        reported.removeAll { $0.offset + 2 * clips[$0.clip].fingerprint.items.count < now }
        let keep = min(horizon, followed.map(\.offset).min() ?? horizon)
        if keep > base {
            stream.removeFirst(min(keep - base, stream.count))
            base = keep
        }
    }
}
