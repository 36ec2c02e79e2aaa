import Foundation

/// onair's copy of the real-world corpus (`Tests/RealWorld`): playlists, manifests, feeds, guides and
/// ICY data that broadcasters and other projects wrote, each folder's `PROVENANCE.json` saying where
/// every artifact came from, and `expectations.json` saying, per case, what onair must conclude.
public struct RealWorldCorpus: Sendable {
    public let directory: URL

    /// The corpus in the package (found from this file's path, so it does not depend on the working
    /// directory). Throws a plain message when it is missing: the tests must not pass without it.
    public init(filePath: String = #filePath) throws {
        let packageRoot = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        directory = packageRoot.appendingPathComponent("Tests/RealWorld").standardizedFileURL
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("expectations.json").path) else {
            throw CorpusMissing(directory: directory.path)
        }
    }

    public struct CorpusMissing: Error, CustomStringConvertible {
        public let directory: String
        public var description: String { "the real-world corpus is missing: expected \(directory)/expectations.json" }
    }

    public func file(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }

    public func data(_ relativePath: String) throws -> Data { try Data(contentsOf: file(relativePath)) }

    /// Every case, in the order `expectations.json` lists them.
    public func cases() throws -> [CorpusCase] {
        try JSONDecoder().decode([CorpusCase].self, from: data("expectations.json"))
    }

    /// The ICY metadata blocks (`icy/metadata-blocks.json`) by id: the text a station sent between the audio.
    public func metadataBlocks() throws -> [String: String] {
        struct Block: Decodable { let id: String, text: String }
        let blocks = try JSONDecoder().decode([Block].self, from: data("icy/metadata-blocks.json"))
        return Dictionary(uniqueKeysWithValues: blocks.map { ($0.id, $0.text) })
    }

    /// The episodes a podcast case expects (a file under `expected/`).
    public func episodes(_ relativePath: String) throws -> [ExpectedEpisode] {
        try JSONDecoder().decode([ExpectedEpisode].self, from: data(relativePath))
    }

    /// The broadcasts a guide case expects (a file under `expected/`).
    public func guideDay(_ relativePath: String) throws -> ExpectedGuideDay {
        try JSONDecoder().decode(ExpectedGuideDay.self, from: data(relativePath))
    }
}

/// One case of `expectations.json`: an artifact, how it is served, the command run on it, and the
/// outcomes that pass (any one of them).
public struct CorpusCase: Decodable, Sendable {
    public enum Command: String, Decodable, Sendable {
        /// `onair resolve URL --json`
        case resolve
        /// `onair listen URL --duration 3 --json`, judged on the requests it makes and its decoding event
        case listen
        /// `onair podcasts add URL`, then `onair podcasts episodes --json`
        case podcast
        /// `onair guide import SOURCE --json`, then `onair guide --date DAY --json`
        case guide
        /// `onair listen` of an ICY stream whose first metadata block is the case's block
        case icyMetadata = "icy-metadata"
    }

    public enum Serving: String, Decodable, Sendable {
        /// The bytes as stored, at the artifact's own path.
        case asStored = "as-stored"
        /// Under `/local/`: every absolute URL a client would fetch points back at the corpus server.
        case rewritten
        /// The bytes are the whole response head (a captured `ICY 200 OK`), then audio.
        case asResponseHead = "as-response-head"
        /// A path on disk instead of a URL (guides: `guide import FILE`).
        case fromDisk = "from-disk"
    }

    public let id: String
    public let command: Command
    /// A path in the corpus; for ICY metadata cases `icy/metadata-blocks.json#ID`.
    public let artifact: String
    public let served: Serving?
    /// Hosts or path parts that answer 503 (a dead mirror) once rewritten.
    public let failingHosts: [String]?
    /// `low` for `--quality low`.
    public let quality: String?
    /// The guide's day (UTC) that `guide --date` lists.
    public let day: String?
    public let outcomes: [CorpusOutcome]

    /// The id of the ICY metadata block an `icy-metadata` case plays.
    public var metadataBlockID: String? {
        artifact.split(separator: "#", maxSplits: 1).dropFirst().first.map(String.init)
    }
}

/// One acceptable conclusion; which fields are present says which kind it is.
public struct CorpusOutcome: Decodable, Sendable {
    /// resolve: exit 0 with a stream like this.
    public let stream: StreamExpectation?
    /// resolve, podcast (at `podcasts add`): exit 1 with an error line like this.
    public let refusal: RefusalExpectation?
    /// podcast: these episodes (a file under `expected/`), no more, no fewer.
    public let episodes: String?
    /// podcast: episodes that are not audio (a video enclosure) may be left out.
    public let nonAudioMayBeLeftOut: Bool?
    /// podcast: added, with exactly this many episodes.
    public let episodeCount: Int?
    /// guide: these broadcasts on the day (a file under `expected/`).
    public let broadcasts: String?
    /// listen: these request paths in this order (each a part of the path).
    public let requestsInOrder: [String]?
    /// listen: no request path contains any of these.
    public let neverRequests: [String]?
    /// listen: a Range request starting with each of these (`0-`, `757-`).
    public let rangesStartingWith: [String]?
    /// listen: the decoding event's fields.
    public let decoding: [String: Int]?
    /// listen: the first media segment asked for is one available at the moment it was asked for.
    public let liveEdge: LiveEdgeExpectation?
    /// icy-metadata: the first title shown.
    public let title: String?
    /// icy-metadata: no title at all.
    public let noTitle: Bool?
    /// icy-metadata: the StreamUrl passed on with the title.
    public let streamURL: String?
}

public struct StreamExpectation: Decodable, Sendable {
    public let kind: String?
    public let urlEndsWith: String?
    public let urlContains: String?
    public let urlContainsIgnoringCase: String?
    public let urlContainsOneOf: [String]?
    public let variants: Int?
    public let variantsAtMost: Int?
    public let chosenBandwidth: Int?
    public let name: String?
    public let bitrate: Int?
    public let contentType: String?
    /// An RFC 6381 codecs string; onair may report it or the codec's name.
    public let codec: String?
    /// kbit/s, inclusive.
    public let bitrateRange: [Int]?
    /// Fields of the answer's `hls` object, compared exactly.
    public let hls: [String: CorpusValue]?
    public let hlsWindowSeconds: Double?
    /// Fields of the answer's `dash` object, compared exactly.
    public let dash: [String: CorpusValue]?
    /// Fields of the answer's `dash` object within [low, high].
    public let dashRanges: [String: [Double]]?
}

public struct RefusalExpectation: Decodable, Sendable {
    /// The error line names every one of these (case-insensitively).
    public let naming: [String]?
    /// ... and at least one of these.
    public let namingOneOf: [String]?
    /// ... and none of these.
    public let neverNaming: [String]?
    /// The error is one line.
    public let oneLine: Bool?
    public let maxCharacters: Int?
}

public struct LiveEdgeExpectation: Decodable, Sendable {
    /// The media requests judged are those whose path contains this (the representation's folder).
    public let pathContains: String
    public let startNumber: Int
    /// The MPD's availabilityStartTime (UTC, to the second).
    public let availabilityStart: String
    public let segmentSeconds: Double
    public let timeShiftBufferSeconds: Double
}

/// A number, a string or a flag from `expectations.json`.
public enum CorpusValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case flag(Bool)
    case number(Double)
    case text(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else { self = .text(try container.decode(String.self)) }
    }

    /// True when a value from onair's JSON (as JSONSerialization gives it) is this one.
    public func matches(_ value: Any?) -> Bool {
        switch (self, value) {
        case (.flag(let want), let got as Bool): return got == want
        case (.number(let want), let got as NSNumber): return got.doubleValue == want
        case (.text(let want), let got as String): return got == want
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .flag(let flag): return "\(flag)"
        case .number(let number): return number == number.rounded() ? "\(Int(number))" : "\(number)"
        case .text(let text): return text
        }
    }
}

public struct ExpectedEpisode: Decodable, Sendable {
    public let guid: String?
    public let title: String
    /// UTC to the second; nil when the feed's date is not a date.
    public let published: String?
    /// The reading a lenient client gives a date the feed writes wrongly (where the case accepts it).
    public let publishedLenient: String?
    public let durationSeconds: Double?
    public let url: String
    public let length: Int
    /// The feed's length is 0 or padded with spaces: none at all is right too.
    public let lengthMayBeAbsent: Bool?
    public let mimeType: String?
    public let chaptersURL: String?
}

public struct ExpectedGuideDay: Decodable, Sendable {
    public struct Broadcast: Decodable, Sendable {
        public let channel: String
        /// UTC to the second.
        public let start: String
        public let stop: String
        /// The title in any of its languages.
        public let titles: [String]
        /// nil: not judged.
        public let subTitle: String?
        /// One-based, from xmltv_ns (which counts from zero).
        public let season: Int?
        public let episode: Int?
        /// The episode as the guide shows it, where it gives no xmltv_ns.
        public let onscreen: String?
    }

    public struct Slot: Decodable, Sendable, Hashable {
        public let channel: String
        public let start: String

        public init(channel: String, start: String) {
            self.channel = channel
            self.start = start
        }
    }

    public let day: String
    public let broadcasts: [Broadcast]
    /// Programmes the guide gives a stop not after their start: listed or left out, both are right.
    public let mayBeLeftOut: [Slot]
}
