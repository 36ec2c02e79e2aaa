import Foundation
import Outputs

/// The sink strings of --to (fifo:PATH, tcp:HOST:PORT, http://ADDR:PORT/PATH, icecast://USER:PASS@…):
/// any text parses or throws, and a parsed sink never shows a password when printed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let spec = try? SinkSpec(parsing: text) else { return 0 }
    let shown = String(describing: spec)
    if case .icecast(let url) = spec, let parts = URLComponents(string: url), let password = parts.password, password != "***" {
        precondition(!shown.contains(":\(password)@"), "the password shows in '\(shown)'")
    }
    return 0
}
