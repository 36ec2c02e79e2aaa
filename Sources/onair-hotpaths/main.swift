// The hot paths a recording and a listener spend their instructions in, run once each on the main thread
// so that `scripts/bench/guard` can count them under callgrind (--toggle-collect on the two functions
// below) and fail CI when they grow. Not installed; not a user command.
//   onair-hotpaths icy-copy FILE.mp3        de-interleave FILE as an ICY body, through the byte queue
//   onair-hotpaths decode-resample FILE     decode FILE to 48 kHz s16 stereo
import Foundation
import Media
import RadioModel
import StreamInput

/// What curl hands the transfer engine per write callback, at most.
let networkChunk = 16 * 1024
/// What the demuxer's AVIO bridge reads from the byte queue at a time.
let demuxerRead = 4 * 1024

/// ICY de-interleaving and the byte queue's copies, as a live recording's bytes take them.
@inline(never) func icyCopy(_ body: [UInt8], metaint: Int) -> Int {
    var deinterleaver = ICYDeinterleaver(metaint: metaint)
    let queue = ByteQueue(capacity: 1 << 20)
    var titles = 0, copied = 0, queued = 0
    var read = [UInt8](repeating: 0, count: demuxerRead)
    body.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + networkChunk)])
            deinterleaver.consume(chunk, audio: { queue.append($0); queued += $0.count }, metadata: { block, _ in
                titles += ICYMetadata(block: block).title == nil ? 0 : 1
            })
            offset += chunk.count
            while copied < queued {
                copied += read.withUnsafeMutableBytes { queue.read(into: $0) }
            }
        }
    }
    return copied + titles
}

/// Decoding and resampling, as every listener and relay does.
@inline(never) func decodeResample(_ file: MediaFile) throws -> Int {
    var bytes = 0
    while try file.read({ bytes += $0.count }) {}
    return bytes
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: onair-hotpaths icy-copy|decode-resample FILE\n".utf8))
    exit(64)
}
let path = arguments[2]
switch arguments[1] {
case "icy-copy":
    let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var interleaver = ICYInterleaver(metaint: 16_000)
    var body: [UInt8] = []
    for (index, start) in stride(from: 0, to: audio.count, by: 8_000).enumerated() {
        if index % 20 == 0 { interleaver.setTitle("Artist - Song \(index / 20)") }
        interleaver.append(audio: audio[start..<min(audio.count, start + 8_000)], to: &body)
    }
    print(icyCopy(body, metaint: 16_000))
case "decode-resample":
    let file = try MediaFile(path: path, format: PCMFormat(sampleRate: 48_000, bitsPerSample: 16, channels: 2))
    print(try decodeResample(file))
default:
    FileHandle.standardError.write(Data("onair-hotpaths: unknown workload '\(arguments[1])'\n".utf8))
    exit(64)
}
