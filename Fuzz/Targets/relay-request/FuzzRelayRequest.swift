import HTTPServing
import Outputs

/// What a client of the HTTP relay sends before its first byte of audio: the request head, read
/// within the relay's size and header limits.
func fuzzRelayRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let end = HTTPRequestHead.end(in: bytes) else { return 0 }
    precondition(end <= bytes.count && bytes[end - 1] == 0x0A, "head ends outside the bytes")
    guard let head = try? HTTPRequestHead(bytes[..<end]) else { return 0 }
    precondition(head.target.hasPrefix("/"), "a target not from the root: \(head.target)")
    precondition(head.headers.count <= HTTPRequestHead.maxHeaders, "\(head.headers.count) headers kept")
    return 0
}
