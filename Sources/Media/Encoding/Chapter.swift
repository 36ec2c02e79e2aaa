import CFFmpeg

/// A named stretch of a recording: a title that was on air, or the audio after a gap.
public struct Chapter: Sendable, Equatable, Codable {
    /// Seconds from the start of the file.
    public var start: Double
    public var end: Double
    public var title: String

    public init(start: Double, end: Double, title: String) {
        self.start = start; self.end = end; self.title = title
    }

    /// Millisecond ticks: finer than any audio frame, and what ID3 CHAP frames count in.
    static let timeBase = AVRational(num: 1, den: 1000)

    /// Chapters as Vorbis comments (CHAPTER000=00:01:02.500, then CHAPTER000NAME=…, in this order, as
    /// readers expect), the way the Ogg muxer writes them, for FLAC, whose muxer writes none itself.
    static func vorbisComments(_ chapters: [Chapter]) -> [(key: String, value: String)] {
        chapters.enumerated().flatMap { index, chapter -> [(key: String, value: String)] in
            let milliseconds = Int((max(0, chapter.start) * 1000).rounded())
            let key = String(format: "CHAPTER%03d", index)
            let time = String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60000 % 60,
                              milliseconds / 1000 % 60, milliseconds % 1000)
            return [(key, time), (key + "NAME", chapter.title)]
        }
    }

    /// Gives a muxer its chapters. libavformat has no public call for this; the array and its entries
    /// are allocated with av_malloc, as avformat_free_context frees them.
    static func attach(_ chapters: [Chapter], to context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard !chapters.isEmpty else { return }
        let size = MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride * chapters.count
        guard let array = av_mallocz(size)?.assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self) else {
            throw MediaError("cannot allocate chapters")
        }
        context.pointee.chapters = array
        for (index, chapter) in chapters.enumerated() {
            guard let entry = av_mallocz(MemoryLayout<AVChapter>.stride)?.assumingMemoryBound(to: AVChapter.self) else {
                throw MediaError("cannot allocate a chapter")
            }
            array[index] = entry
            context.pointee.nb_chapters = UInt32(index + 1)
            entry.pointee.id = Int64(index + 1)
            entry.pointee.time_base = timeBase
            entry.pointee.start = Int64((chapter.start * 1000).rounded())
            entry.pointee.end = Int64((chapter.end * 1000).rounded())
            av_dict_set(&entry.pointee.metadata, "title", chapter.title, 0)
        }
    }
}
