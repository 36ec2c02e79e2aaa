import Foundation

/// iTunes freeform metadata ("----" atoms, each a mean, a name and a UTF-8 value) added to a finished
/// MP4 file: how iTunes, foobar2000 and taggers such as mutagen store what MP4 has no atom of its own
/// for, ReplayGain among it, and where players look for it. FFmpeg's MP4 muxer writes only iTunes' own
/// atoms (its demuxer reads freeform ones back by name), and no library here edits MP4 tags, so this is
/// onair's one MP4 box editor: it appends the atoms to moov/udta/meta/ilst, grows each enclosing box by
/// as much, and moves what follows the moov along, with the chunk offsets that point there (a faststart
/// file's audio).
enum MP4FreeformTags {
    /// A metadata key "----:MEAN:NAME" (as mutagen names them) is a freeform tag, for MP4 files only.
    static let keyPrefix = "----:"

    struct Tag: Equatable {
        /// The tag's namespace: "com.apple.iTunes" for ReplayGain and most others.
        var mean: String
        var name: String
        var value: String
    }

    /// The freeform tags among `metadata` and the rest.
    static func split(_ metadata: [String: String]) -> (freeform: [Tag], rest: [String: String]) {
        var freeform: [Tag] = []
        var rest: [String: String] = [:]
        for (key, value) in metadata {
            let parts = key.dropFirst(keyPrefix.count).split(separator: ":", maxSplits: 1)
            if key.hasPrefix(keyPrefix), parts.count == 2 {
                freeform.append(Tag(mean: String(parts[0]), name: String(parts[1]), value: value))
            } else {
                rest[key] = value
            }
        }
        return (freeform.sorted { $0.name < $1.name }, rest)
    }

    /// Adds `tags` to the MP4 file at `path`. False, with the file untouched, when its layout is not one
    /// this editor knows (no moov/udta/meta/ilst, 64-bit sizes in it) or a 32-bit chunk offset would overflow.
    /// An I/O error on the way may leave the file broken: it is meant for a file still being finished.
    @discardableResult
    static func add(_ tags: [Tag], toFileAt path: String) throws -> Bool {
        guard !tags.isEmpty else { return true }
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? file.close() }
        let fileSize = try file.seekToEnd()
        guard let moovPlace = try topLevelBox("moov", in: file, size: fileSize) else { return false }
        try file.seek(toOffset: moovPlace.offset)
        guard let read = try file.read(upToCount: Int(moovPlace.size)), read.count == Int(moovPlace.size) else { return false }
        var moov = [UInt8](read)
        let oldEnd = moovPlace.offset + moovPlace.size
        guard let delta = insert(tags.flatMap(atom), into: &moov),
              shiftChunkOffsets(in: &moov, from: oldEnd, by: UInt64(delta)) else { return false }
        if oldEnd < fileSize { try moveTail(of: file, from: oldEnd, to: fileSize, by: UInt64(delta)) }
        try file.seek(toOffset: moovPlace.offset)
        try file.write(contentsOf: moov)
        return true
    }

    // MARK: Building

    private static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(8 + content.count)) + Array(type.utf8) + content
    }

    /// One "----" atom: mean and name are full boxes with flags 0, data has type 1 (UTF-8) and locale 0.
    private static func atom(_ tag: Tag) -> [UInt8] {
        box("----", box("mean", [0, 0, 0, 0] + Array(tag.mean.utf8)) + box("name", [0, 0, 0, 0] + Array(tag.name.utf8))
                    + box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(tag.value.utf8)))
    }

    /// Appends `atoms` at the end of moov/udta/meta/ilst (FFmpeg's MP4 muxer writes that path, if empty)
    /// and grows every box around them. The bytes inserted; nil when a box on the way is missing or
    /// not a plain 32-bit one.
    private static func insert(_ atoms: [UInt8], into moov: inout [UInt8]) -> Int? {
        var enclosing = [0..<moov.count]
        // Each box and where its parent's children start: meta is a full box (version and flags after its header).
        for (type, parentHeader) in [("udta", 8), ("meta", 8), ("ilst", 12)] {
            let parent = enclosing.last!
            guard let child = children(of: moov, in: parent.lowerBound + parentHeader..<parent.upperBound)?.first(where: { $0.type == type })
            else { return nil }
            enclosing.append(child.range)
        }
        for range in enclosing {
            guard uint32(moov, at: range.lowerBound) == UInt32(range.count), range.count + atoms.count <= Int(UInt32.max) else { return nil }
            moov.replaceSubrange(range.lowerBound..<range.lowerBound + 4, with: bigEndian(UInt32(range.count + atoms.count)))
        }
        moov.insert(contentsOf: atoms, at: enclosing.last!.upperBound)
        return atoms.count
    }

    // MARK: Reading boxes

    /// The boxes directly inside `range` of `bytes`; nil when one has a 64-bit or open-ended size or
    /// does not fit.
    private static func children(of bytes: [UInt8], in range: Range<Int>) -> [(type: String, range: Range<Int>)]? {
        var found: [(type: String, range: Range<Int>)] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(uint32(bytes, at: offset))
            guard size >= 8, offset + size <= range.upperBound else { return nil }
            found.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset..<offset + size))
            offset += size
        }
        return found
    }

    /// Where the top-level box of `type` lies in the file; nil when there is none, or a box before it is broken.
    private static func topLevelBox(_ type: String, in file: FileHandle, size fileSize: UInt64) throws -> (offset: UInt64, size: UInt64)? {
        var offset: UInt64 = 0
        while offset + 8 <= fileSize {
            try file.seek(toOffset: offset)
            guard let header = try file.read(upToCount: 16).map(Array.init), header.count >= 8 else { return nil }
            var size = UInt64(uint32(header, at: 0))
            if size == 1, header.count == 16 {
                size = header[8..<16].reduce(0) { $0 << 8 | UInt64($1) }  // a 64-bit size follows the type
            } else if size == 0 {
                size = fileSize - offset  // the last box, to the end of the file
            }
            guard size >= 8, offset + size <= fileSize else { return nil }
            if String(decoding: header[4..<8], as: UTF8.self) == type {
                // A moov with a 64-bit size is not one this editor grows.
                return uint32(header, at: 0) == 1 ? nil : (offset, size)
            }
            offset += size
        }
        return nil
    }

    // MARK: Moving the audio

    /// Adds `delta` to every chunk offset (stco, co64 of each track) at or past `start`: where the bytes
    /// after the moov now are. False when a 32-bit offset would overflow.
    private static func shiftChunkOffsets(in moov: inout [UInt8], from start: UInt64, by delta: UInt64) -> Bool {
        guard let tracks = children(of: moov, in: 8..<moov.count)?.filter({ $0.type == "trak" }) else { return false }
        for track in tracks {
            var range = track.range
            for type in ["mdia", "minf", "stbl"] {
                guard let inner = children(of: moov, in: range.lowerBound + 8..<range.upperBound)?.first(where: { $0.type == type })
                else { return false }
                range = inner.range
            }
            for table in children(of: moov, in: range.lowerBound + 8..<range.upperBound) ?? [] where ["stco", "co64"].contains(table.type) {
                let width = table.type == "stco" ? 4 : 8
                let count = Int(uint32(moov, at: table.range.lowerBound + 12))
                let first = table.range.lowerBound + 16
                guard first + count * width <= table.range.upperBound else { return false }
                for entry in stride(from: first, to: first + count * width, by: width) {
                    let value = moov[entry..<entry + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    guard value >= start else { continue }
                    let moved = value + delta
                    if width == 4 {
                        guard moved <= UInt64(UInt32.max) else { return false }
                        moov.replaceSubrange(entry..<entry + 4, with: bigEndian(UInt32(moved)))
                    } else {
                        moov.replaceSubrange(entry..<entry + 8, with: (0..<8).reversed().map { UInt8(truncatingIfNeeded: moved >> ($0 * 8)) })
                    }
                }
            }
        }
        return true
    }

    /// Moves the bytes from `start` to `end` along by `delta`, from the end backwards, in the file itself.
    private static func moveTail(of file: FileHandle, from start: UInt64, to end: UInt64, by delta: UInt64) throws {
        let chunk: UInt64 = 1 << 20
        var position = end
        while position > start {
            let from = max(start, position - min(chunk, position))
            try file.seek(toOffset: from)
            let bytes = try file.read(upToCount: Int(position - from)) ?? Data()
            guard bytes.count == Int(position - from) else { throw MediaError("the MP4 file changed while its tags were added") }
            try file.seek(toOffset: from + delta)
            try file.write(contentsOf: bytes)
            position = from
        }
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
