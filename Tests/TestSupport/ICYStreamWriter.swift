import Foundation

/// Produces the byte stream a Shoutcast/Icecast server sends to a client that asked for
/// `Icy-MetaData: 1`: after every `metaint` audio bytes comes one metadata slot — a length byte
/// L, then L×16 bytes (`StreamTitle='…';`, NUL padded); L = 0 when nothing changed.
///
/// Titles are scheduled by audio position and given as bytes, so a test can send UTF-8, Latin-1,
/// windows-1251, invalid UTF-8, or (with `.raw`) a malformed slot:
///
///     let writer = ICYStreamWriter(audio: mp3, metaint: 8192, schedule: [
///         .title("Ärzte - Westerland"),                                         // first slot
///         .title(bytes: Array("Caf\u{E9} del Mar".unicodeScalars.map { UInt8($0.value) }),
///                atAudioByte: 160_000),                                        // Latin-1, ~10 s in
///         .init(atAudioByte: 320_000, .raw([200, 0x41])),                      // L lies: 3200 bytes promised, 1 sent
///     ])
///     server.route("/live", FixtureHTTPServer.icyStream(writer, bytesPerSecond: 16_000))
public struct ICYStreamWriter: Sendable {
    /// What goes into one metadata slot.
    public enum Block: Sendable, Equatable {
        /// A payload such as `StreamTitle='…';`, framed by the writer (length byte, NUL padding).
        /// At most 255×16 = 4080 bytes.
        case metadata([UInt8])
        /// Bytes sent verbatim in the slot, length byte included: for malformed slots.
        case raw([UInt8])
    }

    /// A block to send at the first slot at or after an audio position. Changes due at the same
    /// slot go out in order, one per slot, so none is lost.
    public struct Change: Sendable, Equatable {
        public var audioOffset: Int
        public var block: Block

        public init(atAudioByte audioOffset: Int, _ block: Block) {
            self.audioOffset = audioOffset
            self.block = block
        }

        /// `StreamTitle='TITLE';` with the title in UTF-8.
        public static func title(_ title: String, atAudioByte offset: Int = 0) -> Change {
            .title(bytes: Array(title.utf8), atAudioByte: offset)
        }

        /// `StreamTitle='…';` around title bytes in any (or no valid) encoding.
        public static func title(bytes: [UInt8], atAudioByte offset: Int = 0) -> Change {
            Change(atAudioByte: offset, .metadata(Array("StreamTitle='".utf8) + bytes + Array("';".utf8)))
        }
    }

    public let audio: Data
    public let metaint: Int
    public let schedule: [Change]

    public init(audio: Data, metaint: Int = 16000, schedule: [Change] = []) {
        precondition(metaint > 0, "metaint must be positive")
        self.audio = audio
        self.metaint = metaint
        // A stable sort keeps same-position changes in the order given.
        self.schedule = schedule.enumerated()
            .sorted { ($0.element.audioOffset, $0.offset) < ($1.element.audioOffset, $1.offset) }
            .map(\.element)
    }

    /// The interleaved stream in one piece.
    public func interleaved() -> Data {
        segments(includeMetadata: true).reduce(into: Data()) { stream, segment in
            stream.append(bytes(of: segment))
        }
    }

    /// Writes the stream to a fixture connection, paced so that `bytesPerSecond` audio bytes go out
    /// per second (metadata does not count), or as fast as the client reads when nil.
    /// Without metadata it sends the audio alone, as servers do for clients that did not ask.
    public func stream(to connection: FixtureConnection, bytesPerSecond: Int? = nil, includeMetadata: Bool = true) throws {
        let start = Date()
        var audioSent = 0
        let chunkSize = bytesPerSecond.map { max(1, $0 / 20) } ?? 65536
        for segment in segments(includeMetadata: includeMetadata) {
            guard case .audio(let range) = segment else {
                try connection.send(bytes(of: segment))
                continue
            }
            for chunkStart in stride(from: range.lowerBound, to: range.upperBound, by: chunkSize) {
                let chunkEnd = min(chunkStart + chunkSize, range.upperBound)
                try connection.send(audio.subdata(in: chunkStart..<chunkEnd))
                audioSent += chunkEnd - chunkStart
                if let bytesPerSecond {
                    let due = start.addingTimeInterval(Double(audioSent) / Double(bytesPerSecond))
                    let wait = due.timeIntervalSinceNow
                    if wait > 0 { try connection.sleep(wait) }
                }
            }
        }
    }

    enum Segment {
        case audio(Range<Int>)
        case slot(Block?)
    }

    func segments(includeMetadata: Bool) -> [Segment] {
        let base = audio.startIndex
        guard includeMetadata else { return [.audio(base..<audio.endIndex)] }
        var segments: [Segment] = []
        var pending = schedule[...]
        var position = 0
        while position < audio.count {
            let chunk = min(metaint, audio.count - position)
            segments.append(.audio((base + position)..<(base + position + chunk)))
            position += chunk
            guard chunk == metaint else { break }
            if let next = pending.first, next.audioOffset <= position {
                segments.append(.slot(next.block))
                pending = pending.dropFirst()
            } else {
                segments.append(.slot(nil))
            }
        }
        return segments
    }

    private func bytes(of segment: Segment) -> Data {
        switch segment {
        case .audio(let range):
            return audio.subdata(in: range)
        case .slot(nil):
            return Data([0])
        case .slot(.raw(let bytes)?):
            return Data(bytes)
        case .slot(.metadata(let payload)?):
            let length = (payload.count + 15) / 16
            precondition(length <= 255, "an ICY metadata block holds at most 4080 bytes")
            return Data([UInt8(length)] + payload + [UInt8](repeating: 0, count: length * 16 - payload.count))
        }
    }
}

/// What a client that asked for metadata sees in an ICY stream: the audio alone and each
/// non-empty metadata block. A reference reader for checking servers and our relay's output.
public struct ICYReceivedStream: Sendable {
    public struct Block: Sendable, Equatable {
        /// Audio bytes before this block.
        public let audioOffset: Int
        /// The block's bytes after the length byte, trailing NUL padding removed.
        public let payload: [UInt8]

        /// The raw bytes of `StreamTitle='…'`. The value ends at a `';` that is followed by the end
        /// or by the next `Key='`, so titles may contain apostrophes (and even `';`).
        public var streamTitle: [UInt8]? {
            let key = Array("StreamTitle='".utf8)
            guard let start = payload.firstRange(of: key)?.upperBound else { return nil }
            var lastTerminator: Int?
            for index in start..<max(start, payload.count - 1) where payload[index] == 0x27 && payload[index + 1] == 0x3B {
                lastTerminator = index
                if Self.startsWithKey(payload[(index + 2)...]) { return Array(payload[start..<index]) }
            }
            return lastTerminator.map { Array(payload[start..<$0]) }
        }

        /// `streamTitle` decoded as UTF-8, nil when absent or not valid UTF-8.
        public var streamTitleText: String? {
            streamTitle.flatMap { String(validating: $0, as: UTF8.self) }
        }

        private static func startsWithKey(_ rest: ArraySlice<UInt8>) -> Bool {
            let trimmed = rest.drop { $0 == 0 }
            guard !trimmed.isEmpty else { return true }
            let name = trimmed.prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            return !name.isEmpty && Array(trimmed.dropFirst(name.count).prefix(2)) == [0x3D, 0x27]  // ='
        }
    }

    public let audio: Data
    public let blocks: [Block]

    /// De-interleaves a captured body. A block cut off by the end of the capture is dropped.
    public init(interleaved stream: Data, metaint: Int) {
        let bytes = [UInt8](stream)
        var audio = Data()
        var blocks: [Block] = []
        var index = 0
        while index < bytes.count {
            let chunkEnd = min(index + metaint, bytes.count)
            audio.append(contentsOf: bytes[index..<chunkEnd])
            index = chunkEnd
            guard index < bytes.count else { break }
            let blockEnd = index + 1 + Int(bytes[index]) * 16
            guard blockEnd <= bytes.count else { break }
            if blockEnd > index + 1 {
                let payload = bytes[(index + 1)..<blockEnd].reversed().drop { $0 == 0 }.reversed()
                blocks.append(Block(audioOffset: audio.count, payload: Array(payload)))
            }
            index = blockEnd
        }
        self.audio = audio
        self.blocks = blocks
    }

    /// The StreamTitle bytes of each block that carries one, in order.
    public var titles: [[UInt8]] { blocks.compactMap(\.streamTitle) }
}
