import Foundation
import Guide

/// XMLTV guides, as a guide server or a file sends them: any bytes give programmes that start before
/// they stop, on a named channel, with a title — or one error line — never a crash.
func fuzzXMLTV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let guide = try XMLTVReader.read(Data(bytes: data, count: size))
        for programme in guide.programmes {
            precondition(programme.start < programme.stop, "a programme that does not start before it stops")
            precondition(!programme.channel.isEmpty && !programme.titles.isEmpty, "a programme without a channel or a title")
            for number in programme.episodeNumbers { _ = (number.display, number.seriesID) }
        }
    } catch {
        precondition(!error.description.contains("\n"), "an error of more than one line: \(error)")
    }
    return 0
}
