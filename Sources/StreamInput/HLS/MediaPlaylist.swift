import Foundation

/// An HLS media playlist (RFC 8216 §4.3.3): the segments a live stream offers right now.
public struct MediaPlaylist: Sendable, Equatable {
    /// The URL it was loaded from, after redirects: relative URIs were resolved against it.
    public var url: String
    /// EXT-X-TARGETDURATION: no segment is longer; it paces the reloads.
    public var targetDuration: Double
    /// EXT-X-MEDIA-SEQUENCE: the sequence number of the first segment.
    public var mediaSequence: Int
    /// EXT-X-DISCONTINUITY-SEQUENCE: the discontinuity count of the first segment.
    public var discontinuitySequence: Int
    public var segments: [MediaSegment]
    /// EXT-X-ENDLIST: no segment will be added; the stream ends after the last one.
    public var endList: Bool

    /// Seconds of audio the playlist spans: how far back a late listener can still start.
    public var windowDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The sequence number after the last segment.
    public var endSequence: Int { mediaSequence + segments.count }

    public func segment(sequence: Int) -> MediaSegment? {
        let index = sequence - mediaSequence
        return segments.indices.contains(index) ? segments[index] : nil
    }
}

/// One media segment and everything needed to fetch, decrypt and place it.
public struct MediaSegment: Sendable, Equatable {
    public var sequence: Int
    public var url: String
    /// EXTINF duration in seconds.
    public var duration: Double
    /// EXT-X-BYTERANGE: only these bytes of the resource are the segment.
    public var byteRange: ByteRange?
    /// EXT-X-DISCONTINUITY precedes it: timestamps, and maybe the encoding, start afresh here.
    public var discontinuity: Bool
    /// The wall-clock time of its first sample: its own EXT-X-PROGRAM-DATE-TIME, or one carried
    /// forward from an earlier segment by adding durations (never across a discontinuity).
    public var programDateTime: Date?
    public var encryption: SegmentEncryption?
    /// EXT-X-MAP: the initialisation section (fMP4's moov) that must precede it.
    public var initSection: InitSection?
}

/// A sub-range of a resource: `length` bytes from `offset`.
public struct ByteRange: Sendable, Equatable, Hashable {
    public var offset: Int
    public var length: Int

    public init(offset: Int, length: Int) { self.offset = offset; self.length = length }

    /// The HTTP Range header value.
    public var httpRange: String { "bytes=\(offset)-\(offset + length - 1)" }
}

/// EXT-X-KEY METHOD=AES-128: the whole segment is AES-128-CBC with PKCS#7 padding.
public struct SegmentEncryption: Sendable, Equatable {
    public var keyURL: String
    /// The tag's IV, or else the segment's media sequence number as a 128-bit big-endian integer.
    public var iv: [UInt8]

    /// The IV RFC 8216 §5.2 derives when the tag gives none.
    public static func sequenceIV(_ sequence: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: 8) + withUnsafeBytes(of: UInt64(sequence).bigEndian, Array.init)
    }
}

/// EXT-X-MAP: where the initialisation section lives.
public struct InitSection: Sendable, Equatable {
    public var url: String
    public var byteRange: ByteRange?
    /// The key in effect where the tag stands (RFC 8216 §4.3.2.5: then the tag must give the IV).
    public var encryption: SegmentEncryption?
}
