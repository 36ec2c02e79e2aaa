import CFFmpeg
import Foundation
import RadioModel
import StreamInput

/// A recording on disk decoded to PCM: the on-demand side of the same decoder path live stations take
/// (Demuxer, AudioDecoder, Resampler), seekable to the sample. Its FFmpeg handles stay on the thread
/// that uses it.
public final class MediaFile {
    public let path: String
    public let format: PCMFormat
    /// Seconds, when the container knows.
    public let duration: Double?
    public let chapters: [Chapter]
    public let codecName: String
    public let bitrate: Int?
    /// The file's own title tag ("artist - title" when both are there).
    public let title: String?
    /// The loudness its ReplayGain or R128 tags give.
    public let loudness: LoudnessTag?
    private let demuxer: Demuxer
    private let decoder: AudioDecoder
    private var resampler: Resampler
    private let ownedPacket: OwnedPacket
    private let ownedFrame: OwnedFrame
    private let timeBase: AVRational
    /// The timestamp of the first audible sample: codecs with an encoder delay (MP3, AAC) start after 0.
    private let firstTimestamp: Int64
    /// The media time, in frames of `format`, of the next PCM frame handed out.
    private var nextFrame: Int64 = 0
    /// After a seek: audio before this frame is decoded but dropped, so playback lands on the asked
    /// sample rather than on the packet boundary before it. Nil also means "position known".
    private var landing: Int64?
    private var drained = false

    /// `path`: a file, or an http(s) URL read with range requests (a podcast episode on its server).
    public init(path: String, format: PCMFormat) throws {
        self.path = path
        self.format = format
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            do {
                demuxer = try Demuxer(remote: try RemoteFile(url: path))
            } catch let error as TransferError {
                throw MediaError("\(error)")
            }
        } else {
            guard FileManager.default.fileExists(atPath: path) else { throw MediaError("no such file: \(path)") }
            demuxer = try Demuxer(path: path)
        }
        decoder = try AudioDecoder(stream: demuxer.stream)
        resampler = Resampler(format: format)
        ownedPacket = try OwnedPacket()
        ownedFrame = try OwnedFrame()
        let context = demuxer.context!
        timeBase = demuxer.stream.pointee.time_base
        let startTime = demuxer.stream.pointee.start_time
        firstTimestamp = startTime == onair_av_nopts_value() ? 0 : startTime
        duration = context.pointee.duration > 0 ? Double(context.pointee.duration) / Double(AV_TIME_BASE) : nil
        codecName = decoder.codecName
        let parameters = demuxer.stream.pointee.codecpar.pointee
        bitrate = parameters.bit_rate > 0 ? Int(parameters.bit_rate)
            : (context.pointee.bit_rate > 0 ? Int(context.pointee.bit_rate) : nil)
        title = demuxer.takeInStreamTitle()
        let dictionaries = [context.pointee.metadata, demuxer.stream.pointee.metadata]
        loudness = LoudnessTag { name in
            dictionaries.lazy.compactMap { av_dict_get($0, name, nil, 0)?.pointee.value.map { String(cString: $0) } }.first
        }
        chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index] else { return nil }
            let base = av_q2d(chapter.pointee.time_base)
            let name = av_dict_get(chapter.pointee.metadata, "title", nil, 0)
                .flatMap { $0.pointee.value.map { UntrustedText.printable(String(cString: $0)) } }
            return Chapter(start: Double(chapter.pointee.start) * base, end: Double(chapter.pointee.end) * base,
                           title: name ?? "Chapter \(index + 1)")
        }
    }

    /// Seconds from the start of the file of the next audio handed out.
    public var position: Double { Double(landing ?? nextFrame) / Double(format.sampleRate) }

    /// Moves to `seconds` (clamped to the file): the next audio handed out starts there.
    public func seek(to seconds: Double) throws {
        // A time from a person or a request: Int64 of an infinite or huge one would trap. A year is past any file's end.
        guard seconds.isFinite else { throw MediaError("cannot seek to \(seconds) s in \(path)") }
        let target = max(0, min(duration.map { min(seconds, $0) } ?? seconds, 366 * 86400))
        let timestamp = Int64((target + Double(firstTimestamp) * av_q2d(timeBase)) * Double(AV_TIME_BASE))
        let result = avformat_seek_file(demuxer.context, -1, Int64.min, timestamp, timestamp, 0)
        guard result >= 0 else { throw MediaError("cannot seek to \(target) s in \(path)", code: result) }
        decoder.flush()
        resampler = Resampler(format: format)
        drained = false
        landing = Int64((target * Double(format.sampleRate)).rounded())
    }

    /// Decodes the next packet and passes its audio to `body`; false once the file has ended.
    public func read(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let packet = ownedPacket.pointer, frame = ownedFrame.pointer
        guard !drained else { return false }
        guard let payload = try demuxer.read(into: packet) else {
            drained = true
            try decoder.decode(nil, frame: frame) { try convert($0, body) }
            try resampler.drain { try hand($0, body) }
            return true
        }
        defer { av_packet_unref(packet) }
        guard case .audio = payload else { return true }
        do {
            try decoder.decode(packet, frame: frame) { try convert($0, body) }
        } catch is MediaError {
            // A damaged packet in a recording costs its few milliseconds, not the rest of the file.
        }
        return true
    }

    private func convert(_ decoded: UnsafeMutablePointer<AVFrame>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        // Each frame after a seek, until the landing point, tells where the decoder really is.
        let pts = decoded.pointee.best_effort_timestamp
        if landing != nil, pts != onair_av_nopts_value() {
            nextFrame = Int64((Double(pts - firstTimestamp) * av_q2d(timeBase) * Double(format.sampleRate)).rounded())
        }
        try resampler.convert(decoded) { try hand($0, body) }
    }

    /// Drops what lies before a seek's landing point, passes on the rest and counts it.
    private func hand(_ pcm: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let frames = Int64(pcm.count / format.bytesPerFrame)
        var skip: Int64 = 0
        if let target = landing {
            skip = min(frames, max(0, target - nextFrame))
            if nextFrame + frames > target { landing = nil }
        }
        nextFrame += frames
        guard skip < frames else { return }
        try body(UnsafeRawBufferPointer(rebasing: pcm[Int(skip) * format.bytesPerFrame..<pcm.count]))
    }
}
