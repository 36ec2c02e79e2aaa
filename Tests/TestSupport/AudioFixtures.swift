import Foundation

/// The encodings tests need, each with the ffmpeg arguments that produce it the way a radio
/// station sends it (no ID3 or Xing header on MP3: streams have none).
public enum AudioCodec: String, Sendable, CaseIterable {
    case mp3
    /// AAC-LC in ADTS frames, as `audio/aac` stations send it.
    case aacADTS
    /// HE-AAC in ADTS when ffmpeg has libfdk_aac; Debian's ffmpeg has no HE-AAC encoder, and then
    /// this is AAC-LC at HE-AAC bitrates (check `AudioCodec.encodesHEAAC` when SBR itself matters).
    case heAAC
    case oggVorbis
    case oggOpus
    case flac
    /// 16-bit PCM WAV, for checking analysis itself.
    case wav

    public var fileExtension: String {
        switch self {
        case .mp3: return "mp3"
        case .aacADTS, .heAAC: return "aac"
        case .oggVorbis: return "ogg"
        case .oggOpus: return "opus"
        case .flac: return "flac"
        case .wav: return "wav"
        }
    }

    /// The Content-Type a station (and Icecast) sends for this encoding.
    public var contentType: String {
        switch self {
        case .mp3: return "audio/mpeg"
        case .aacADTS, .heAAC: return "audio/aac"
        case .oggVorbis, .oggOpus: return "audio/ogg"
        case .flac: return "audio/flac"
        case .wav: return "audio/wav"
        }
    }

    /// Opus only encodes 48 kHz (and its divisors); the rest default to 44.1 kHz like most stations.
    public var defaultSampleRate: Int { self == .oggOpus ? 48000 : 44100 }

    /// Typical bitrates in kbit/s; nil for lossless encodings.
    public var defaultBitrate: Int? {
        switch self {
        case .mp3, .aacADTS, .oggVorbis: return 128
        case .heAAC: return 48
        case .oggOpus: return 96
        case .flac, .wav: return nil
        }
    }

    /// Encoder and muxer arguments for ffmpeg (everything after the input and channel options).
    public func ffmpegArguments(bitrate: Int? = nil) -> [String] {
        let rate = (bitrate ?? defaultBitrate).map { ["-b:a", "\($0)k"] } ?? []
        switch self {
        case .mp3: return ["-c:a", "libmp3lame"] + rate + ["-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"]
        case .aacADTS: return ["-c:a", "aac"] + rate + ["-f", "adts"]
        case .heAAC:
            let encoder = Self.encodesHEAAC ? ["-c:a", "libfdk_aac", "-profile:a", "aac_he"] : ["-c:a", "aac"]
            return encoder + rate + ["-f", "adts"]
        case .oggVorbis: return ["-c:a", "libvorbis"] + rate + ["-f", "ogg"]
        case .oggOpus: return ["-c:a", "libopus"] + rate + ["-f", "ogg"]
        case .flac: return ["-c:a", "flac", "-f", "flac"]
        case .wav: return ["-c:a", "pcm_s16le", "-f", "wav"]
        }
    }

    /// Whether this ffmpeg can encode real HE-AAC (it has libfdk_aac).
    public static var encodesHEAAC: Bool { encoderList.contains(" libfdk_aac ") }

    private static let encoderList: String = {
        (try? ProcessRunner.run("ffmpeg", ["-hide_banner", "-encoders"], timeout: 30).stdoutText) ?? ""
    }()
}

/// One stretch of a test signal: a sine at `frequency` Hz (0 = digital silence) for `seconds`.
public struct Tone: Sendable, Hashable {
    public var frequency: Double
    public var seconds: Double

    public init(frequency: Double, seconds: Double) {
        self.frequency = frequency
        self.seconds = seconds
    }

    public static func silence(seconds: Double) -> Tone { Tone(frequency: 0, seconds: seconds) }
}

/// Real encoded audio, made by the ffmpeg CLI on first use and cached for the rest of the test
/// process (in one temporary directory, removed at exit). Read the bytes with `Data(contentsOf:)`.
/// Level: ffmpeg's sine peaks at 1/8 full scale; its mono-to-stereo upmix lowers each channel by
/// 3 dB, so a stereo fixture measures RMS 0.0625 (-24 dBFS), a mono one 0.088 (-21 dBFS).
///
///     let mp3 = try AudioFixtures.sine(frequency: 440, seconds: 10)
///     let steps = try AudioFixtures.tones([Tone(frequency: 440, seconds: 2), .silence(seconds: 1),
///                                          Tone(frequency: 880, seconds: 2)], codec: .oggOpus)
public enum AudioFixtures {
    /// A single sine tone; `gain` (dB) changes its level.
    public static func sine(
        frequency: Double = 440,
        seconds: Double = 10,
        codec: AudioCodec = .mp3,
        sampleRate: Int? = nil,
        channels: Int = 2,
        bitrate: Int? = nil,
        gain: Double = 0
    ) throws -> URL {
        try tones([Tone(frequency: frequency, seconds: seconds)], codec: codec,
                  sampleRate: sampleRate, channels: channels, bitrate: bitrate, gain: gain)
    }

    /// Tones (and silences) back to back, e.g. to tell segments apart or to leave a gap to find;
    /// `gain` (dB) changes their level.
    public static func tones(
        _ tones: [Tone],
        codec: AudioCodec = .mp3,
        sampleRate: Int? = nil,
        channels: Int = 2,
        bitrate: Int? = nil,
        gain: Double = 0
    ) throws -> URL {
        precondition(!tones.isEmpty, "at least one tone")
        let rate = sampleRate ?? codec.defaultSampleRate
        let sources = tones.enumerated().map { index, tone in
            "sine=frequency=\(tone.frequency):sample_rate=\(rate):duration=\(tone.seconds)[t\(index)]"
        }
        let labels = tones.indices.map { "[t\($0)]" }.joined()
        let graph = sources.joined(separator: ";") + ";\(labels)concat=n=\(tones.count):v=0:a=1,volume=\(gain)dB[out0]"
        let arguments = ["-f", "lavfi", "-i", graph, "-ac", "\(channels)"] + codec.ffmpegArguments(bitrate: bitrate)
        return try cache.file(for: arguments, fileExtension: codec.fileExtension)
    }

    /// The directory the fixtures are written to.
    public static var directory: URL { cache.directory.url }

    private static let cache = FixtureCache()
}

/// Encodes each distinct ffmpeg command once per process.
private final class FixtureCache: @unchecked Sendable {
    let directory: TemporaryDirectory
    private let lock = NSLock()
    private var files: [[String]: URL] = [:]

    init() {
        do {
            directory = try TemporaryDirectory(prefix: "onair-audio-fixtures")
        } catch {
            fatalError("cannot create a temporary directory for audio fixtures: \(error)")
        }
        // Statics are never deinitialized, so remove the directory at process exit.
        atexit { try? FileManager.default.removeItem(at: AudioFixtures.directory) }
    }

    /// Runs ffmpeg (serialized: the machines running tests have few cores) unless cached.
    func file(for arguments: [String], fileExtension: String) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let cached = files[arguments] { return cached }
        let output = directory.file("fixture-\(files.count).\(fileExtension)")
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
                                  + arguments + [output.path], timeout: 120).check()
        files[arguments] = output
        return output
    }
}
