import Foundation
import Outputs

/// The sink strings of --to (fifo:PATH, tcp:HOST:PORT, http://ADDR:PORT/PATH, icecast://USER:PASS@…):
/// any text parses or throws, and neither the parsed sink nor the error about it shows a password —
/// read the way URLComponents (and so libcurl) reads it, or the way a person reads a mistyped URL.
func fuzzSinkSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let shown: String
    do {
        shown = String(describing: try SinkSpec(parsing: text))
    } catch {
        // The sink as the error quotes it ("invalid sink '…': reason"); the reason's own words are not the sink's.
        let message = "\(error)"
        let quoted = message.range(of: "invalid sink '").map { message[$0.upperBound...] } ?? message[...]
        shown = String(quoted.range(of: "': ").map { quoted[..<$0.lowerBound] } ?? quoted)
    }
    // Only URL sinks carry credentials (a pulse server or fifo path is a name, whatever it contains).
    // A password whose characters occur elsewhere in the text (a path, a query) may show there, as
    // written: only one that occurs once must not show at all.
    guard ["icecast://", "http://"].contains(where: { text.lowercased().hasPrefix($0) }) else { return 0 }
    for password in [URLComponents(string: text)?.password, userInfoPassword(text)].compactMap({ $0 })
        where password.count >= 3 && password != "***" && text.components(separatedBy: password).count == 2
            && !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        precondition(!shown.contains(password), "the password shows in '\(shown)'")
    }
    return 0
}

/// The password of `scheme://user:password@host…` found by plain splitting, as a person reads it.
private func userInfoPassword(_ text: String) -> String? {
    guard let scheme = text.range(of: "://") else { return nil }
    let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.range(of: "@", options: .backwards) else { return nil }
    let userInfo = authority[..<at.lowerBound]
    return userInfo.firstIndex(of: ":").map { String(userInfo[userInfo.index(after: $0)...]) }
}
