// Clip detection as the daemon runs it, for scripts/bench/clip_cost.py to time: FILE decoded to 48 kHz s16 stereo (the
// daemon's pipeline) or to RATE and CHANNELS, watched for the clips of the library in DATA (a data directory); prints each
// airing's clip and start. A program of its own, apart from onair-hotpaths, whose instruction counts CI's guard compares
// with a baseline: linking the clip library and its database there changed them. Not installed; not a user command.
//   onair-clip-cost FILE DATA [RATE CHANNELS]
import ClipDetection
import Foundation
import Media
import RadioModel
import Store

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: onair-clip-cost FILE DATA [RATE CHANNELS]\n".utf8))
    exit(64)
}
let format = arguments.count == 5
    ? PCMFormat(sampleRate: Int(arguments[3]) ?? 0, bitsPerSample: 16, channels: Int(arguments[4]) ?? 0)
    : PCMFormat(sampleRate: 48_000, bitsPerSample: 16, channels: 2)
let clips = try ClipLibrary(database: try OnairDatabase(directory: URL(fileURLWithPath: arguments[2]))).all()
let watch = try ClipWatch(index: ClipIndex(clips), station: "file", format: format, clock: { Date(timeIntervalSince1970: 0) }) { airing in
    print(airing.clip, String(format: "%.3f", airing.mediaTime))
}
let file = try MediaFile(path: arguments[1], format: format)
while try file.read({ try? watch.consume($0) }) {}
watch.finish()
