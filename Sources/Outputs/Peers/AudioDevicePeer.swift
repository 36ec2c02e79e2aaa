import CFFmpeg
import Media
import RadioModel

/// A sound server or card through libavdevice's "pulse" and "alsa" outputs. The device plays at its
/// own clock and its writes block until it wants more, so it paces itself. The FFmpeg context lives
/// and dies on the sink's writer thread.
final class AudioDevicePeer: PCMPeer, @unchecked Sendable {  // used only on its sink's writer thread
    /// Which device to open.
    enum Target: Sendable, Equatable {
        /// A PulseAudio server (nil: the default one, or $PULSE_SERVER) and sink (nil: its default).
        case pulse(server: String?, sink: String?)
        /// An ALSA device name (nil: "default").
        case alsa(device: String?)
        /// PulseAudio if a server answers, else ALSA's default device.
        case speaker
    }

    let pacesItself = true
    private let target: Target
    private let format: PCMFormat
    private let streamName: String
    private let deviceBufferMilliseconds: Int
    private var context: OwnedOutputContext?
    private var packet: OwnedPacket?
    private var nextTimestamp: Int64 = 0
    /// What `open` reached, to name it when it fails.
    private var opened = ""
    private let volume: DeviceVolume?
    /// The volume generation last applied to this connection (-1: none yet).
    private var appliedVolume = -1
    private var devices: DeviceLibrary?

    /// libavdevice is loaded (and its outputs registered) on the first device sink; alsa-lib comes with it.
    private static let library = Result<DeviceLibrary, Error> {
        let library = try DeviceLibrary.shared()
        onair_silence_alsa_errors()
        return library
    }

    /// - Parameters:
    ///   - streamName: how the stream shows in the sound server's mixer (the station).
    ///   - deviceBuffer: seconds PulseAudio buffers (its default is 2 s, too much lag for a relay).
    init(target: Target, format: PCMFormat, streamName: String, deviceBuffer: Double, volume: DeviceVolume? = nil) {
        self.target = target
        self.volume = volume
        self.format = format
        self.streamName = streamName
        deviceBufferMilliseconds = max(20, Int(deviceBuffer * 1000))
    }

    func open() throws -> String {
        let devices: DeviceLibrary
        do { devices = try Self.library.get() } catch { throw PeerUnavailable("\(error)") }
        self.devices = devices
        switch target {
        case .pulse(let server, let sink):
            opened = try openPulse(server: server, sink: sink)
        case .alsa(let device):
            opened = try openALSA(device: device)
        case .speaker:
            do {
                opened = try openPulse(server: nil, sink: nil)
            } catch let pulseFailure {
                do {
                    opened = try openALSA(device: nil)
                } catch {
                    throw PeerUnavailable("no PulseAudio (\(pulseFailure)) and no ALSA device (\(error))")
                }
            }
        }
        return opened
    }

    private func openPulse(server: String?, sink: String?) throws -> String {
        // PulseAudio asks for more once a quarter of the buffer has played (its `minreq`), and the sink writes
        // that much at a time (PacedPCMSink): about ten wake-ups a second rather than one per few milliseconds.
        let requestBytes = deviceBufferMilliseconds / 4 * format.sampleRate / 1000 * format.bytesPerFrame
        var options: [String: String] = ["name": "onair", "buffer_duration": "\(deviceBufferMilliseconds)",
                                          "minreq": "\(requestBytes)"]
        options["server"] = server
        options["device"] = sink
        let description = "PulseAudio " + (server ?? "default server") + (sink.map { ", sink \($0)" } ?? "")
        do {
            try openDevice("pulse", url: streamName, options: options)
        } catch {
            throw PeerUnavailable("\(description) did not take the stream (\(error))")
        }
        return description
    }

    private func openALSA(device: String?) throws -> String {
        try openDevice("alsa", url: device ?? "default", options: [:])
        return "ALSA device \(device ?? "default")"
    }

    private func openDevice(_ name: String, url: String, options: [String: String]) throws {
        guard let output = av_guess_format(name, nil, nil) else {
            throw PeerUnavailable("this FFmpeg has no \(name) output")
        }
        guard let owned = try? OwnedOutputContext(format: output, url: url), let stream = avformat_new_stream(owned.pointer, nil),
              let packet = try? OwnedPacket()
        else {
            throw PeerUnavailable("cannot set up the \(name) output")
        }
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = Self.codec(for: format)
        // libavdevice sizes PulseAudio's buffer from the sample format: without it, `buffer_duration` came to
        // nothing and PulseAudio ran a 3.5 ms buffer, waking the player 1,700 times a second.
        parameters.pointee.format = Self.sampleFormat(for: format).rawValue
        parameters.pointee.sample_rate = Int32(format.sampleRate)
        onair_default_channel_layout(&parameters.pointee.ch_layout, Int32(format.channels))
        stream.pointee.time_base = AVRational(num: 1, den: Int32(format.sampleRate))

        let status = owned.writeHeader(options: options)
        guard status >= 0 else {
            throw PeerUnavailable(MediaError("\(name)", code: status).message)
        }
        context = owned
        self.packet = packet
        nextTimestamp = 0
        appliedVolume = -1
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard let context = context?.pointer, let packet = packet?.pointer, av_new_packet(packet, Int32(bytes.count)) >= 0 else {
            throw PeerUnavailable("out of memory for an audio packet")
        }
        defer { av_packet_unref(packet) }
        applyVolume(context)
        packet.pointee.data.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
        let frames = Int64(bytes.count / format.bytesPerFrame)
        packet.pointee.pts = nextTimestamp
        packet.pointee.dts = nextTimestamp
        packet.pointee.duration = frames
        let status = av_write_frame(context, packet)
        guard status >= 0 else { throw PeerUnavailable(MediaError(opened, code: status).message) }
        nextTimestamp += frames
        return bytes.count
    }

    /// Passes a changed volume to the device (PulseAudio sets its sink-input's volume; ALSA declines).
    private func applyVolume(_ context: UnsafeMutablePointer<AVFormatContext>) {
        guard let volume, let devices, let wanted = volume.change(since: appliedVolume) else { return }
        appliedVolume = wanted.generation
        var level = wanted.level
        let set = devices.appToDeviceControlMessage(context, AV_APP_TO_DEV_SET_VOLUME, &level, MemoryLayout<Double>.size)
        let mute = devices.appToDeviceControlMessage(context, wanted.muted ? AV_APP_TO_DEV_MUTE : AV_APP_TO_DEV_UNMUTE, nil, 0)
        volume.noteHandled(set >= 0 && mute >= 0)
    }

    func close() {
        if let context { av_write_trailer(context.pointer) }
        packet = nil
        context = nil
    }

    /// A sound server that is down, or a box in another room that is off, comes back in its own time.
    func retryDelay(afterFailures failures: Int) -> Double {
        min(5, 0.25 * Double(failures))
    }

    /// The sample format FFmpeg decodes each PCM codec to (24-bit packed widens to 32).
    private static func sampleFormat(for format: PCMFormat) -> AVSampleFormat {
        format.bitsPerSample == 16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_S32
    }

    /// PCMFormat holds 16, 24 (packed) or 32-bit signed little-endian samples.
    private static func codec(for format: PCMFormat) -> AVCodecID {
        switch format.bitsPerSample {
        case 24: return AV_CODEC_ID_PCM_S24LE
        case 32: return AV_CODEC_ID_PCM_S32LE
        default: return AV_CODEC_ID_PCM_S16LE
        }
    }
}
