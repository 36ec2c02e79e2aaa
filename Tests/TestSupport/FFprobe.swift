import Foundation

/// What ffprobe says about a media file.
public struct MediaProbe: Sendable {
    public struct Stream: Sendable {
        public let index: Int
        /// `mp3`, `aac`, `opus`, `vorbis`, `flac`, `pcm_s16le`, …
        public let codecName: String?
        /// `audio`, `video`, `data`, …
        public let codecType: String?
        /// `LC`, `HE-AAC`, … when the codec has profiles.
        public let profile: String?
        public let sampleRate: Int?
        public let channels: Int?
        public let bitRate: Int?
        public let duration: Double?
        public let tags: [String: String]
    }

    /// ffprobe's demuxer name(s), e.g. `mp3`, `aac`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`.
    public let formatName: String
    /// In seconds. ffprobe estimates it from the bitrate for raw ADTS/MP3 streams; decode with
    /// `FFprobe.decodePCM` and read `duration` when it must be exact.
    public let duration: Double?
    public let bitRate: Int?
    public let tags: [String: String]
    public let streams: [Stream]

    /// The first audio stream.
    public var audio: Stream? { streams.first { $0.codecType == "audio" } }
}

/// The ffmpeg command-line tools as an oracle: what a file is, whether it decodes cleanly, and its
/// decoded PCM for `PCMAudio` measurements.
public enum FFprobe {
    /// `ffprobe -v error -show_format -show_streams -of json FILE`
    public static func inspect(_ file: URL) throws -> MediaProbe {
        let result = try checked(ProcessRunner.run("ffprobe", ["-v", "error", "-show_format", "-show_streams",
                                                               "-of", "json", file.path], timeout: 60), reading: file)
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        return MediaProbe(
            formatName: report.format.format_name,
            duration: report.format.duration.flatMap(Double.init),
            bitRate: report.format.bit_rate.flatMap(Int.init),
            tags: report.format.tags ?? [:],
            streams: (report.streams ?? []).map { stream in
                MediaProbe.Stream(
                    index: stream.index, codecName: stream.codec_name, codecType: stream.codec_type,
                    profile: stream.profile, sampleRate: stream.sample_rate.flatMap(Int.init),
                    channels: stream.channels, bitRate: stream.bit_rate.flatMap(Int.init),
                    duration: stream.duration.flatMap(Double.init), tags: stream.tags ?? [:])
            })
    }

    /// How many errors ffmpeg reports while decoding the whole file (`ffmpeg -v error -i FILE -f null -`);
    /// 0 means it decodes cleanly. The messages themselves go to stderr, i.e. into the test log.
    public static func decodeErrors(_ file: URL) throws -> Int {
        let result = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-f", "null", "-"],
                                           timeout: 300)
        var errors = result.stderrText.split(separator: "\n").map(String.init)
        if !result.succeeded && errors.isEmpty { errors.append(result.description) }
        if !errors.isEmpty {
            FileHandle.standardError.write(Data("decoding \(file.path):\n\(errors.joined(separator: "\n"))\n".utf8))
        }
        return errors.count
    }

    /// Decodes the first audio stream to 32-bit float PCM at the given rate and channel count.
    public static func decodePCM(_ file: URL, sampleRate: Int = 48000, channels: Int = 2) throws -> PCMAudio {
        let result = try ProcessRunner.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", file.path, "-map", "0:a:0",
            "-f", "f32le", "-acodec", "pcm_f32le", "-ar", "\(sampleRate)", "-ac", "\(channels)", "-",
        ], timeout: 300)
        try checked(result, reading: file)
        return try PCMAudio(raw: result.stdout, format: .f32le, sampleRate: sampleRate, channels: channels)
    }

    /// A failed read says what the file looked like: its size and first and last bytes, so that a rare
    /// bad file (a truncated ADTS frame, a garbled header) can be told from a tool that failed.
    @discardableResult
    private static func checked(_ result: ProcessResult, reading file: URL) throws -> ProcessResult {
        guard !result.succeeded else { return result }
        let bytes = (try? Data(contentsOf: file)) ?? Data()
        let hex = { (part: Data) in part.map { String(format: "%02x", $0) }.joined(separator: " ") }
        throw FileReadFailure(result: result, evidence: "\(file.lastPathComponent): \(bytes.count) bytes, "
                              + "first [\(hex(bytes.prefix(16)))], last [\(hex(bytes.suffix(16)))]")
    }

    public struct FileReadFailure: Error, CustomStringConvertible {
        public let result: ProcessResult
        public let evidence: String
        public var description: String { "\(result)\n\(evidence)" }
    }

    /// ffprobe's JSON, as far as the tests need it (numbers arrive as strings).
    private struct Report: Decodable {
        struct Format: Decodable {
            let format_name: String
            let duration: String?
            let bit_rate: String?
            let tags: [String: String]?
        }
        struct Stream: Decodable {
            let index: Int
            let codec_name: String?
            let codec_type: String?
            let profile: String?
            let sample_rate: String?
            let channels: Int?
            let bit_rate: String?
            let duration: String?
            let tags: [String: String]?
        }
        let format: Format
        let streams: [Stream]?
    }
}
