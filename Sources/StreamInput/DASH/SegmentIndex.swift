import Foundation

/// A Segment Index box, `sidx` (ISO/IEC 14496-12 §8.16.3): where each segment of an on-demand file
/// lies and how long it plays. An MPD's `SegmentBase@indexRange` points at it. Versions 0 and 1 are
/// read; a hierarchical index (a reference to another `sidx`) is refused, since single-file audio
/// packagers (shaka-packager, FFmpeg's `global_sidx`, MP4Box) write one flat index.
struct SegmentIndex: Sendable, Equatable {
    /// More references than an on-demand file of a day in 2-second segments has.
    static let maxReferences = 50_000
    /// What an index of `maxReferences` takes, with room for a box before it.
    static let maxIndexBytes = 1 << 20

    struct Reference: Sendable, Equatable {
        /// Where the segment lies in the file.
        var byteRange: ByteRange
        /// In `timescale` units.
        var duration: Int64
    }

    var timescale: Int
    /// The first segment's presentation time, in `timescale` units.
    var earliestPresentationTime: Int64
    var references: [Reference]

    /// Reads the first `sidx` box in `data`, the bytes found at `fileOffset` of the file (the box's
    /// offsets count from the first byte after it). Boxes before it (`styp`) are skipped.
    static func parse(_ data: Data, fileOffset: Int, url: String) throws -> SegmentIndex {
        func fail(_ message: String) -> PlaylistError { PlaylistError(url: url, line: nil, message: "the segment index (sidx) \(message)") }
        var reader = BoxReader(bytes: [UInt8](data))
        while true {
            let boxStart = reader.position
            guard let size32 = reader.uint32(), let type = reader.fourCC() else { throw fail("is missing from the index range") }
            var size = Int(size32)
            if size32 == 1 {
                guard let large = reader.uint64(), large <= UInt64(Int.max / 2) else { throw fail("has a box size out of range") }
                size = Int(large)
            }
            guard size >= reader.position - boxStart || size32 == 0 else { throw fail("has a box smaller than its header") }
            guard type == "sidx" else {
                guard size32 != 0, boxStart + size < data.count else { throw fail("is missing from the index range") }
                reader.position = boxStart + size
                continue
            }
            guard size32 == 0 || size <= data.count - boxStart else { throw fail("is larger than the index range") }
            let boxSize = size32 == 0 ? data.count - boxStart : size
            return try readBody(&reader, anchor: fileOffset + boxStart + boxSize, fail: fail)
        }
    }

    private static func readBody(_ reader: inout BoxReader, anchor: Int, fail: (String) -> PlaylistError) throws -> SegmentIndex {
        guard let version = reader.uint8(), reader.skip(3 + 4), let timescale = reader.uint32() else { throw fail("is cut short") }
        guard version <= 1 else { throw fail("has version \(version), which onair does not read") }
        guard timescale > 0 else { throw fail("has timescale 0") }
        let earliest: UInt64?, firstOffset: UInt64?
        if version == 0 {
            earliest = reader.uint32().map(UInt64.init); firstOffset = reader.uint32().map(UInt64.init)
        } else {
            earliest = reader.uint64(); firstOffset = reader.uint64()
        }
        guard let earliest, let firstOffset, reader.skip(2), let count = reader.uint16() else { throw fail("is cut short") }
        guard earliest <= UInt64(Int64.max / 2), firstOffset <= UInt64(Int.max / 4) else { throw fail("has a time or offset out of range") }
        guard count > 0 else { throw fail("lists no segment") }
        guard Int(count) <= maxReferences else { throw fail("lists more than \(maxReferences) segments") }
        var references: [Reference] = []
        references.reserveCapacity(Int(count))
        var offset = anchor + Int(firstOffset)
        for _ in 0..<count {
            guard let sizeWord = reader.uint32(), let duration = reader.uint32(), reader.skip(4) else { throw fail("is cut short") }
            guard sizeWord & 0x8000_0000 == 0 else {
                throw fail("refers to another sidx (a hierarchical index), which onair does not follow")
            }
            let size = Int(sizeWord)
            guard size > 0 else { throw fail("lists a segment of 0 bytes") }
            references.append(Reference(byteRange: ByteRange(offset: offset, length: size), duration: Int64(duration)))
            offset += size
        }
        return SegmentIndex(timescale: Int(timescale), earliestPresentationTime: Int64(earliest), references: references)
    }

    /// The index as the segments of a SegmentTemplate whose media are `url` at each reference's bytes.
    /// `base` gives the initialisation's range and the presentationTimeOffset (in its own timescale).
    func template(url: String, base: MPD.SegmentBase) -> MPD.SegmentTemplate {
        var template = MPD.SegmentTemplate()
        template.timescale = timescale
        template.presentationTimeOffset = Self.rescale(base.presentationTimeOffset, from: base.timescale, to: timescale)
        template.listed = references.map { MPD.ListedSegment(url: url, byteRange: $0.byteRange) }
        // Without Initialization@range the on-demand file's initialisation is everything before the index.
        let initializationRange = base.initializationRange
            ?? (base.initializationURL == nil && base.indexRange.offset > 0 ? ByteRange(offset: 0, length: base.indexRange.offset) : nil)
        template.initialization = base.initializationURL ?? (initializationRange == nil ? nil : url)
        template.initializationRange = initializationRange
        var time = earliestPresentationTime
        template.timeline = references.map { reference in
            defer { time = time &+ reference.duration }
            return MPD.TimelineEntry(time: time, duration: max(reference.duration, 1), repeatCount: 0)
        }
        return template
    }

    private static func rescale(_ value: Int64, from: Int, to: Int) -> Int64 {
        guard from != to, from > 0 else { return value }
        let scaled = Double(value) * Double(to) / Double(from)
        return scaled < 0x1p62 ? Int64(scaled) : 1 << 62
    }
}

/// Big-endian fields read from a box, each nil past the end.
private struct BoxReader {
    let bytes: [UInt8]
    var position = 0

    mutating func skip(_ count: Int) -> Bool {
        guard bytes.count - position >= count else { return false }
        position += count
        return true
    }

    private mutating func read(_ count: Int) -> UInt64? {
        guard bytes.count - position >= count else { return nil }
        defer { position += count }
        return bytes[position..<position + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func uint8() -> UInt8? { read(1).map { UInt8($0) } }
    mutating func uint16() -> UInt16? { read(2).map { UInt16($0) } }
    mutating func uint32() -> UInt32? { read(4).map { UInt32($0) } }
    mutating func uint64() -> UInt64? { read(8) }

    mutating func fourCC() -> String? {
        guard bytes.count - position >= 4 else { return nil }
        defer { position += 4 }
        return String(decoding: bytes[position..<position + 4], as: UTF8.self)
    }
}
