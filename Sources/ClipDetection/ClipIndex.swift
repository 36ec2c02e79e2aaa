import RadioModel

/// A reference clip: a song, jingle, ad or station ID the stations are watched for.
public struct ReferenceClip: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case song, jingle, ad, id
    }

    public let id: Int64
    public let name: String
    public let kind: Kind
    /// The clip's audio length (its fingerprint's items describe a little less: the last item looks ahead).
    public let seconds: Double
    public let fingerprint: Fingerprint
    /// Learned from a station that named it (`TrackLearner`), not added by a person.
    public let learned: Bool

    /// The longest name a clip may have, in characters.
    public static let longestName = 200

    /// `name` trimmed, if it can name a clip: not empty, at most `longestName` characters, nothing unprintable (it is shown
    /// in pages, logs and a command's environment, and PostgreSQL refuses a NUL).
    public static func checkedName(_ name: String) throws(ClipError) -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw ClipError("a clip needs a name") }
        guard name.count <= longestName else { throw ClipError("a clip's name is at most \(longestName) characters") }
        guard UntrustedText.printable(name) == name else { throw ClipError("a clip's name cannot hold control characters") }
        return name
    }

    public init(id: Int64, name: String, kind: Kind, seconds: Double, fingerprint: Fingerprint, learned: Bool = false) {
        self.id = id
        self.name = name
        self.kind = kind
        self.seconds = seconds
        self.fingerprint = fingerprint
        self.learned = learned
    }
}

/// The clips, indexed by the two 16-bit halves of each item: a stream item one of whose halves equals a clip
/// item's votes for that clip starting where the two would align. Whole 32-bit items rarely survive a
/// re-encoding unchanged (at one bit in ten wrong, 3 % do); a half does about one time in five, so an airing of
/// a few seconds collects votes while unrelated audio collects them at random offsets, which never add up.
/// Built once per library change and shared read-only by every station's matcher.
public final class ClipIndex: Sendable {
    public let clips: [ReferenceClip]
    /// The most items a clip has: how far back a station's items are kept.
    let longest: Int
    /// Per half value (low halves at 0…65535, high halves at 65536…), the (clip, item) pairs that have it.
    private let postings: [[Posting]]

    struct Posting: Sendable {
        let clip: Int32
        let item: Int32
    }

    /// Values this common (silence, a hum) say nothing about which clip is on; they are left out of the index.
    private static func isTooCommon(_ count: Int, mean: Double) -> Bool { count > max(64, Int(mean * 50)) }

    public init(_ clips: [ReferenceClip]) {
        self.clips = clips
        longest = clips.map(\.fingerprint.items.count).max() ?? 0
        var postings = [[Posting]](repeating: [], count: 1 << 17)
        for (clip, reference) in clips.enumerated() {
            for (item, value) in reference.fingerprint.items.enumerated() {
                let posting = Posting(clip: Int32(clip), item: Int32(item))
                postings[Int(value & 0xFFFF)].append(posting)
                postings[0x10000 | Int(value >> 16)].append(posting)
            }
        }
        let mean = Double(clips.reduce(0) { $0 + $1.fingerprint.items.count } * 2) / Double(postings.count)
        for slot in postings.indices where Self.isTooCommon(postings[slot].count, mean: mean) { postings[slot] = [] }
        self.postings = postings
    }

    /// Calls `hit` with (clip, item) for every clip item sharing a half with `value`.
    @inline(__always)
    func forEachHit(_ value: UInt32, _ hit: (Int, Int) -> Void) {
        for posting in postings[Int(value & 0xFFFF)] { hit(Int(posting.clip), Int(posting.item)) }
        for posting in postings[0x10000 | Int(value >> 16)] { hit(Int(posting.clip), Int(posting.item)) }
    }
}
