import Foundation
import Outputs

/// The sink strings of --to (fifo:PATH, tcp:HOST:PORT, http://ADDR:PORT/PATH, icecast://USER:PASS@…):
/// any text parses or throws, and a parsed sink never shows a password when printed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let spec: SinkSpec
    do {
        spec = try SinkSpec(parsing: text)
    } catch {
        // An error message quotes the sink: the password written in its user information stays hidden.
        // (The rest of the text, quoted in the reason, may repeat the password's characters as written.)
        if let password = userInfoPassword(text), !password.isEmpty, password != "***" {
            let message = "\(error)"
            let quoted = message.range(of: "invalid sink '").map { String(message[$0.upperBound...]) } ?? message
            precondition(userInfoPassword(quoted) == "***", "the password shows in '\(message)'")
        }
        return 0
    }
    let shown = String(describing: spec)
    if case .icecast(let url) = spec, URLComponents(string: url)?.password != nil {
        // The user information of what is shown (before the host's "@") has its password masked; the
        // mount path may contain anything, even the password's text, and is shown as written.
        let authority = (shown.range(of: "://").map { shown[$0.upperBound...] } ?? shown[...]).prefix { $0 != "/" }
        let userInfo = authority.range(of: "@", options: .backwards).map { authority[..<$0.lowerBound] }
        precondition(userInfo.map { $0.hasSuffix(":***") } ?? true, "the password shows in '\(shown)'")
    }
    return 0
}

/// The password of `scheme://user:password@host…` found by plain splitting, as a user reads it.
private func userInfoPassword(_ text: String) -> String? {
    guard let scheme = text.range(of: "://") else { return nil }
    let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.range(of: "@", options: .backwards) else { return nil }
    let userInfo = authority[..<at.lowerBound]
    return userInfo.firstIndex(of: ":").map { String(userInfo[userInfo.index(after: $0)...]) }
}
