import CFFmpeg
import RadioModel
import Foundation

/// What a file's audio holds, as its demuxer's timestamps tell it.
public struct RemuxSummary: Sendable, Equatable, Codable {
    /// Seconds from the first packet's start to the last one's end.
    public let duration: Double
    /// FFmpeg's codec name: "mp3", "aac", "opus", "vorbis", "flac".
    public let codecName: String
    public let sampleRate: Int
    public let channels: Int
    public let bitRate: Int?
    public let packets: Int
}

/// Copies a file's audio packets into a new container — no decoding, no re-encoding — with tags and
/// chapters: how a recording's partial file (a stream format that plays while it grows) becomes its
/// finished file. Every timestamp comes from the input's demuxer.
public enum ContainerRemux {
    /// Reads `input` through without writing anything: how long it is, and in what codec.
    public static func summary(of input: String) throws -> RemuxSummary {
        try AudioFileReader(path: input).readAll { _ in }
    }

    /// `metadata` by FFmpeg's generic names; for MP4, keys "----:MEAN:NAME" become iTunes freeform
    /// atoms (see MP4FreeformTags), which FFmpeg's muxer does not write. Tag values and chapter titles carry
    /// what stations, directories and guides sent, so they are made printable here, where every one passes.
    public static func remux(input: String, output: String, container: AudioContainer, metadata: [String: String],
                             chapters: [Chapter]) throws -> RemuxSummary {
        let metadata = metadata.mapValues { UntrustedText.printable($0) }
        let chapters = chapters.map { Chapter(start: $0.start, end: $0.end, title: UntrustedText.printable($0.title)) }
        let (freeform, generic) = container == .mp4 ? MP4FreeformTags.split(metadata) : ([], metadata)
        let reader = try AudioFileReader(path: input)
        let writer = try ContainerWriter(container: container, parameters: reader.parameters, timeBase: reader.timeBase,
                                         metadata: generic, chapters: chapters, output: .file(path: output))
        let summary = try reader.readAll { try writer.write($0) }
        try writer.finish()
        try MP4FreeformTags.add(freeform, toFileAt: output)
        return summary
    }
}

/// The audio packets of a file, in order.
private final class AudioFileReader {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let index: Int32
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    private let demuxerName: String

    init(path: String) throws {
        let context = try InputFile.open(path)
        self.context = context
        // Raw ADTS and MP3 only reveal rate and channels once frames were parsed.
        let result = avformat_find_stream_info(context, nil)
        index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard result >= 0, index >= 0 else {
            avformat_close_input(&self.context)
            throw MediaError("\(path) has no readable audio", code: min(result, index))
        }
        let stream = context.pointee.streams[Int(index)]!
        parameters = stream.pointee.codecpar
        timeBase = stream.pointee.time_base
        demuxerName = String(cString: context.pointee.iformat.pointee.name)
    }

    deinit { avformat_close_input(&context) }

    /// Hands each whole audio packet to `body`. A file cut short by a crash ends in a broken frame or
    /// page: reading stops there, and what came before counts.
    func readAll(_ body: (EncodedPacket) throws -> Void) throws -> RemuxSummary {
        let owned = try OwnedPacket()
        let packet = owned.pointer
        let nopts = onair_av_nopts_value()
        var packets = 0
        var first: Int64?
        var end: Int64 = 0
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let bytes = UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
            guard FrameIntegrity.isComplete(bytes, demuxer: demuxerName) != false else { continue }
            let start = packet.pointee.pts != nopts ? packet.pointee.pts : packet.pointee.dts
            if start != nopts {
                first = first ?? start
                end = max(end, start + packet.pointee.duration)
            }
            try body(EncodedPacket(packet: packet, timeBase: timeBase))
            packets += 1
        }
        let duration = first.map { Double(end - $0) * av_q2d(timeBase) } ?? 0
        return RemuxSummary(duration: max(0, duration), codecName: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
                            sampleRate: Int(parameters.pointee.sample_rate), channels: Int(parameters.pointee.ch_layout.nb_channels),
                            bitRate: parameters.pointee.bit_rate > 0 ? Int(parameters.pointee.bit_rate) : nil, packets: packets)
    }
}
