import Foundation
import Outputs
import RadioModel
import Recording

/// What a request from the network may name on the box: a relay's sinks (only those declared, by name or
/// as written) and a recording's output template (only inside the recordings folder). The input's first
/// line is the sink asked for, the rest the template. Asserts that no other sink is ever resolved, and
/// that an admitted template, filled with any values, names a file under the recordings folder.
func fuzzNetworkRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let declared = DeclaredSinks(["kitchen": "fifo:/tmp/snapfifo", "loft": "icecast://source:s3cret@127.0.0.1:8000/loft"])

    do {
        let sink = try declared.resolve(parts[0])
        precondition(declared.sinks.values.contains(sink), "'\(parts[0])' resolved to an undeclared '\(sink)'")
    } catch {
        // The refusal quotes the request without its control characters, which may join "s3c\0ret" into the word.
        precondition(!error.description.contains("s3cret") || UntrustedText.printable(parts[0]).contains("s3cret"),
                     "a refusal quoted a declared password: \(error)")
        precondition(!error.description.contains(where: { $0.isNewline }), "a refusal of more than one line")
    }
    guard parts.count > 1, let template = try? FileNameTemplate(fromNetwork: parts[1]) else { return 0 }
    let base = URL(fileURLWithPath: "/srv/recordings", isDirectory: true)
    let values = FileNameTemplate.Values(station: parts[0], programme: "../..", title: "/etc/passwd", start: Date(timeIntervalSince1970: 0),
                                         timeZone: TimeZone(identifier: "UTC")!, fileExtension: "mp3")
    let path = template.path(for: values, base: base).standardizedFileURL.path
    // Bytes, not characters: a combining mark after a slash makes one character of the two.
    precondition(path.utf8.starts(with: "/srv/recordings/".utf8), "'\(parts[1])' admitted, and names \(path)")
    return 0
}
