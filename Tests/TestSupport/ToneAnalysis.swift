import Foundation

/// Interleaved PCM samples scaled to -1…1, with the measurements tests make on what a sink wrote
/// or a decoder produced: duration, dominant frequency, level, longest silence.
///
///     let pcm = try PCMAudio(wavFile: output)
///     XCTAssertEqual(pcm.duration, 10, accuracy: 0.05)
///     XCTAssertEqual(try XCTUnwrap(pcm.dominantFrequency()), 440, accuracy: 2)
///     XCTAssertLessThan(pcm.longestSilence(), 0.1)
public struct PCMAudio: Sendable {
    public let sampleRate: Int
    public let channels: Int
    /// Interleaved: frame 0 channel 0, frame 0 channel 1, …
    public let samples: [Float]

    public init(sampleRate: Int, channels: Int, samples: [Float]) {
        precondition(sampleRate > 0 && channels > 0 && samples.count % channels == 0)
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    public var frameCount: Int { samples.count / channels }
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    // MARK: Reading

    /// Raw interleaved PCM such as a fifo, tcp or stdout sink writes. A trailing partial frame is an error.
    public init(raw data: Data, format: PCMSampleFormat, sampleRate: Int, channels: Int) throws {
        let frameSize = format.bytesPerSample * channels
        guard data.count % frameSize == 0 else {
            throw PCMError.malformed("\(data.count) bytes is not a whole number of \(frameSize)-byte frames")
        }
        self.init(sampleRate: sampleRate, channels: channels, samples: format.decode([UInt8](data)))
    }

    public init(wavFile url: URL) throws {
        try self.init(wav: Data(contentsOf: url))
    }

    /// Parses a RIFF/WAVE file strictly: the RIFF size must match the file, every chunk must fit,
    /// and the data chunk must hold whole frames — a sink that never patched its header fails here.
    public init(wav data: Data) throws {
        let bytes = [UInt8](data)
        func tag(_ offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        func uint16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func uint32(_ offset: Int) -> Int { uint16(offset) | uint16(offset + 2) << 16 }

        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw PCMError.malformed("not a RIFF/WAVE file") }
        guard uint32(4) == bytes.count - 8 else {
            throw PCMError.malformed("RIFF size \(uint32(4)) but the file has \(bytes.count - 8) bytes after it")
        }
        var format: (tag: Int, channels: Int, sampleRate: Int, bits: Int)?
        var payload: ArraySlice<UInt8>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = uint32(offset + 4)
            let body = offset + 8
            guard body + size <= bytes.count else {
                throw PCMError.malformed("chunk '\(tag(offset))' claims \(size) bytes, only \(bytes.count - body) remain")
            }
            switch tag(offset) {
            case "fmt ":
                guard size >= 16 else { throw PCMError.malformed("fmt chunk of \(size) bytes") }
                var formatTag = uint16(body)
                if formatTag == 0xFFFE, size >= 40 { formatTag = uint16(body + 24) }  // WAVE_FORMAT_EXTENSIBLE subformat
                let channels = uint16(body + 2), sampleRate = uint32(body + 4), bits = uint16(body + 14)
                guard channels > 0, sampleRate > 0,
                      uint16(body + 12) == channels * bits / 8,
                      uint32(body + 8) == sampleRate * channels * bits / 8
                else { throw PCMError.malformed("inconsistent fmt chunk (block align or byte rate)") }
                format = (formatTag, channels, sampleRate, bits)
            case "data":
                payload = bytes[body..<body + size]
            default:
                break  // LIST, fact, …
            }
            offset = body + size + size % 2  // chunks are padded to even sizes
        }
        guard offset == bytes.count else { throw PCMError.malformed("chunks end at byte \(offset), the file at \(bytes.count)") }
        guard let format, let payload else { throw PCMError.malformed("missing fmt or data chunk") }
        let sampleFormat: PCMSampleFormat
        switch (format.tag, format.bits) {
        case (1, 16): sampleFormat = .s16le
        case (1, 24): sampleFormat = .s24le
        case (1, 32): sampleFormat = .s32le
        case (3, 32): sampleFormat = .f32le
        default: throw PCMError.malformed("unsupported WAV format \(format.tag) with \(format.bits) bits")
        }
        try self.init(raw: Data(payload), format: sampleFormat, sampleRate: format.sampleRate, channels: format.channels)
    }

    // MARK: Measuring

    /// The part from `start` to `end` seconds (to the end when nil), clamped to the audio.
    public func slice(from start: Double, to end: Double? = nil) -> PCMAudio {
        let first = min(frameCount, max(0, Int(start * Double(sampleRate))))
        let last = min(frameCount, max(first, end.map { Int($0 * Double(sampleRate)) } ?? frameCount))
        return PCMAudio(sampleRate: sampleRate, channels: channels,
                        samples: Array(samples[(first * channels)..<(last * channels)]))
    }

    /// The frame-by-frame average of all channels.
    public func mono() -> [Float] {
        guard channels > 1 else { return samples }
        return (0..<frameCount).map { frame in
            var sum: Float = 0
            for channel in 0..<channels { sum += samples[frame * channels + channel] }
            return sum / Float(channels)
        }
    }

    /// Root mean square over all samples, 0…1 (a full-scale sine is 0.707).
    public func rms() -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// `rms()` in dB relative to full scale; -infinity for digital silence.
    public func rmsDBFS() -> Double { 20 * log10(rms()) }

    /// The strongest frequency in Hz, from a Hann-windowed FFT of (up to 2^17 frames from the
    /// middle of) the mono mix, refined by Gaussian interpolation between bins: a pure tone
    /// comes out well within ±0.5 Hz. Nil for silence or fewer than 256 frames.
    public func dominantFrequency() -> Double? {
        let maximumWindow = 1 << 17
        let signal = mono()
        guard signal.count >= 256, rms() > 1e-6 else { return nil }
        let windowLength = min(signal.count, maximumWindow)
        let start = (signal.count - windowLength) / 2
        // Zero padding to at least 2^16 points makes bins narrow enough for the interpolation.
        var size = 1 << 16
        while size < windowLength { size <<= 1 }
        var real = [Double](repeating: 0, count: size)
        var imaginary = [Double](repeating: 0, count: size)
        for index in 0..<windowLength {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(windowLength - 1))
            real[index] = Double(signal[start + index]) * hann
        }
        fourierTransform(&real, &imaginary)
        let magnitudes = (0..<size / 2).map { (real[$0] * real[$0] + imaginary[$0] * imaginary[$0]).squareRoot() }
        guard let peak = (1..<size / 2 - 1).max(by: { magnitudes[$0] < magnitudes[$1] }) else { return nil }
        let (left, center, right) = (log(magnitudes[peak - 1]), log(magnitudes[peak]), log(magnitudes[peak + 1]))
        let curvature = left - 2 * center + right
        let shift = curvature == 0 ? 0 : 0.5 * (left - right) / curvature
        return (Double(peak) + shift) * Double(sampleRate) / Double(size)
    }

    /// The longest run, in seconds, in which every channel stays at or below `thresholdDBFS`.
    public func longestSilence(thresholdDBFS: Double = -60) -> Double {
        let threshold = Float(pow(10, thresholdDBFS / 20))
        var longest = 0, current = 0
        for frame in 0..<frameCount {
            var silent = true
            for channel in 0..<channels where abs(samples[frame * channels + channel]) > threshold {
                silent = false
                break
            }
            current = silent ? current + 1 : 0
            longest = max(longest, current)
        }
        return Double(longest) / Double(sampleRate)
    }

    /// In-place iterative radix-2 FFT; the count must be a power of two.
    private func fourierTransform(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var reversed = 0
        for index in 1..<count {
            var bit = count >> 1
            while reversed & bit != 0 {
                reversed ^= bit
                bit >>= 1
            }
            reversed |= bit
            if index < reversed {
                real.swapAt(index, reversed)
                imaginary.swapAt(index, reversed)
            }
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            let (stepReal, stepImaginary) = (cos(angle), sin(angle))
            for blockStart in stride(from: 0, to: count, by: length) {
                var (twiddleReal, twiddleImaginary) = (1.0, 0.0)
                for offset in 0..<length / 2 {
                    let even = blockStart + offset, odd = even + length / 2
                    let oddReal = real[odd] * twiddleReal - imaginary[odd] * twiddleImaginary
                    let oddImaginary = real[odd] * twiddleImaginary + imaginary[odd] * twiddleReal
                    real[odd] = real[even] - oddReal
                    imaginary[odd] = imaginary[even] - oddImaginary
                    real[even] += oddReal
                    imaginary[even] += oddImaginary
                    (twiddleReal, twiddleImaginary) = (twiddleReal * stepReal - twiddleImaginary * stepImaginary,
                                                       twiddleReal * stepImaginary + twiddleImaginary * stepReal)
                }
            }
            length <<= 1
        }
    }
}

/// Little-endian interleaved sample formats.
public enum PCMSampleFormat: Sendable {
    case s16le, s24le, s32le, f32le

    public var bytesPerSample: Int {
        switch self {
        case .s16le: return 2
        case .s24le: return 3
        case .s32le, .f32le: return 4
        }
    }

    func decode(_ bytes: [UInt8]) -> [Float] {
        let width = bytesPerSample
        return stride(from: 0, to: bytes.count - width + 1, by: width).map { offset in
            var word: UInt32 = 0
            for byte in 0..<width { word |= UInt32(bytes[offset + byte]) << (8 * byte) }
            switch self {
            case .s16le: return Float(Int16(truncatingIfNeeded: word)) / 32768
            case .s24le: return Float(Int32(bitPattern: word << 8) >> 8) / 8_388_608
            case .s32le: return Float(Double(Int32(bitPattern: word)) / 2_147_483_648)
            case .f32le: return Float(bitPattern: word)
            }
        }
    }
}

public enum PCMError: Error, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): return "malformed PCM: \(reason)"
        }
    }
}
