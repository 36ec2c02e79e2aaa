import Foundation

/// An MPEG-DASH Media Presentation Description (ISO/IEC 23009-1 §5.3), reduced to what an audio
/// follower needs: the presentation clock, the periods, and each audio representation's segment
/// template with every inherited attribute and BaseURL already resolved.
public struct MPD: Sendable, Equatable {
    public enum PresentationType: String, Sendable {
        /// Every segment exists already (on demand, or a live stream that ended).
        case `static`
        /// Live: segments become available as the presentation clock passes their end.
        case dynamic
    }

    /// The URL it was loaded from, after redirects.
    public var url: String
    public var type: PresentationType
    /// The wall-clock time of presentation time 0 (dynamic only).
    public var availabilityStartTime: Date?
    public var publishTime: Date?
    public var mediaPresentationDuration: Double?
    /// How often the MPD may change; nil means it never does (a dynamic MPD computed from the clock alone).
    public var minimumUpdatePeriod: Double?
    /// How far back from the live edge segments stay available; nil is for ever.
    public var timeShiftBufferDepth: Double?
    /// How far behind the live edge the author wants players to play.
    public var suggestedPresentationDelay: Double?
    public var maxSegmentDuration: Double?
    public var periods: [Period]
    /// MPD@Location (§5.3.1.2): where to load the MPD from next time, absolute and http(s).
    public var location: String? = nil
    /// Where to ask the time (§5.8.4.11), in order of preference.
    public var utcTimings: [UTCTiming]
    /// What was read leniently (no DASH namespace, undeclared prefixes, decimals for integers): one line each.
    public var warnings: [String] = []
}

extension MPD {
    /// A stretch of the presentation with its own content, e.g. a programme and the ad break after it.
    public struct Period: Sendable, Equatable {
        public var id: String?
        /// Seconds from the presentation's start; nil when it follows straight on from the previous period.
        public var start: Double?
        public var duration: Double?
        /// The audio representations, from every audio adaptation set.
        public var representations: [Representation]
    }

    /// One encoding of the audio.
    public struct Representation: Sendable, Equatable {
        public var id: String
        /// Bit/s.
        public var bandwidth: Int
        public var mimeType: String?
        public var codecs: String?
        public var audioSamplingRate: Int?
        /// Representation@qualityRanking: lower is better; a tie-breaker for equal bandwidths.
        public var qualityRanking: Int?
        /// The BaseURL in effect, absolute.
        public var baseURL: String
        /// SegmentTemplate, or SegmentList (the same timing, its media listed); nil with SegmentBase.
        public var template: SegmentTemplate?
        /// SegmentBase with an index (§5.3.9.2): the segments are listed by the file's `sidx` box.
        public var segmentBase: SegmentBase? = nil
        /// Why onair cannot play it (encrypted, a codec FFmpeg cannot decode); nil when it can.
        public var refusal: String? = nil
    }

    /// SegmentBase (§5.3.9.2) on the on-demand profile: one file, its initialisation and its segment
    /// index (`sidx`) at byte ranges the MPD gives.
    public struct SegmentBase: Sendable, Equatable {
        /// The file's URL (the BaseURL in effect), absolute.
        public var url: String
        public var indexRange: ByteRange
        /// Initialization@range, or nil when the MPD names no initialisation (the file starts with it).
        public var initializationRange: ByteRange?
        /// Initialization@sourceURL when the initialisation is in another file.
        public var initializationURL: String?
        public var timescale = 1
        public var presentationTimeOffset: Int64 = 0

        /// Which index this is: periods often share one file's.
        public struct IndexKey: Hashable, Sendable {
            var url: String
            var indexRange: ByteRange
        }
        public var indexKey: IndexKey { IndexKey(url: url, indexRange: indexRange) }
    }

    /// SegmentURL (§5.3.9.3.2): one listed media segment, or a byte range of a resource.
    public struct ListedSegment: Sendable, Equatable {
        public var url: String
        public var byteRange: ByteRange?
    }

    /// SegmentTemplate (§5.3.9.4) with the attributes inherited from Period and AdaptationSet; a
    /// SegmentList (§5.3.9.3) is the same timing with its segments listed (`listed`) instead of a `media` pattern.
    public struct SegmentTemplate: Sendable, Equatable {
        public var media: String?
        public var initialization: String?
        /// SegmentList: the media segments in order, URLs absolute; `$Number$` k is `listed[k - startNumber]`.
        public var listed: [ListedSegment]?
        /// Initialization@range (SegmentList, or SegmentBase once its index is read).
        public var initializationRange: ByteRange?
        public var startNumber = 1
        public var timescale = 1
        /// Segment length in `timescale` units when there is no timeline.
        public var duration: Int64?
        public var presentationTimeOffset: Int64 = 0
        /// Seconds a segment may be fetched before its end (low-latency chunked delivery).
        public var availabilityTimeOffset = 0.0
        /// False when a segment fetched early is still being written.
        public var availabilityTimeComplete = true
        public var timeline: [TimelineEntry]?
    }

    /// `<S t d r>`: `repeatCount + 1` segments of `duration`, the first at `time` (else where the previous ended).
    public struct TimelineEntry: Sendable, Equatable {
        public var time: Int64?
        public var duration: Int64
        /// -1 repeats until the next entry's time, the period's end, or the live edge.
        public var repeatCount: Int64
    }

    /// `<UTCTiming schemeIdUri value>`: how to learn the server's clock.
    public struct UTCTiming: Sendable, Equatable {
        public enum Scheme: Sendable, Equatable {
            /// The value is a URL answering with an ISO 8601 date (http-iso and http-xsdate alike).
            case httpISO
            /// The value is a URL whose HTTP Date header gives the time.
            case httpHead
            /// The value is the time itself, as of when the MPD was sent.
            case direct
        }
        public var scheme: Scheme
        public var value: String
    }
}
