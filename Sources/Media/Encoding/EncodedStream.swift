import CFFmpeg

/// The compressed format of one run: what a stream copy needs to write a container.
/// It owns a copy of FFmpeg's codec parameters, so it outlives the demuxer it came from.
public final class EncodedFormat: @unchecked Sendable {  // immutable: the codec parameters are never written after init
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    /// Codec name as FFmpeg knows it: "mp3", "aac", "opus", "vorbis", "flac".
    public let codecName: String
    public let sampleRate: Int
    public let channels: Int
    /// Nominal bit/s, when known.
    public let bitRate: Int?

    init(copying source: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws {
        guard let parameters = avcodec_parameters_alloc() else { throw MediaError("cannot allocate codec parameters") }
        let copied = avcodec_parameters_copy(parameters, source)
        guard copied >= 0 else {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
            throw MediaError("cannot copy codec parameters", code: copied)
        }
        self.parameters = parameters
        self.timeBase = timeBase
        codecName = String(cString: avcodec_get_name(source.pointee.codec_id))
        sampleRate = Int(source.pointee.sample_rate)
        channels = Int(source.pointee.ch_layout.nb_channels)
        bitRate = source.pointee.bit_rate > 0 ? Int(source.pointee.bit_rate) : nil
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&owned)
    }

    /// The container this codec is stored in without re-encoding, for a live stream or a file.
    public func naturalContainer(forFile: Bool) -> AudioContainer {
        switch codecName {
        case "mp3": return .mp3
        case "aac": return forFile ? .mp4 : .adts
        case "flac": return .flac
        default: return .ogg
        }
    }
}

/// One compressed packet, valid only during the call it is handed to.
public struct EncodedPacket: @unchecked Sendable {  // valid only during the decode-thread call it is handed to
    let packet: UnsafeMutablePointer<AVPacket>
    let timeBase: AVRational

    /// Start time in seconds, when the demuxer gave one.
    public var seconds: Double? {
        let pts = packet.pointee.pts != onair_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
        guard pts != onair_av_nopts_value() else { return nil }
        return Double(pts) * av_q2d(timeBase)
    }

    /// Duration in seconds (0 when unknown).
    public var duration: Double { Double(packet.pointee.duration) * av_q2d(timeBase) }

    public var size: Int { Int(packet.pointee.size) }
}
