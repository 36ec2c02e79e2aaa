import Foundation
import RadioModel
import Scheduling
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's control socket answers each client on its own: a request that takes a while (a job
/// starting, which connects to its station) or a client that never finishes its line holds nobody up,
/// and a flood of clients is refused past a bound instead of piling up threads.
final class ControlServerTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var server: ControlServer?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "onair-control")
        signal(SIGPIPE, SIG_IGN)
    }

    override func tearDown() {
        server?.stop()
    }

    private var path: String { directory.file("daemon.sock").path }

    func testASlowRequestDoesNotHoldUpTheNextClient() throws {
        let (slowArrived, fastAnswered) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        server = try ControlServer(path: path, clientTimeout: 30) { request in
            // The slow request finishes only once the fast one has been answered: answered one at a
            // time, the fast client would wait behind it until its own timeout.
            if request == Data("slow".utf8) {
                slowArrived.signal()
                _ = fastAnswered.wait(timeout: .now() + 30)
            }
            return Data("answer to \(String(decoding: request, as: UTF8.self))".utf8)
        }
        let slowAnswer = Locked<Data?>(nil)
        let slowClient = Thread { [path] in slowAnswer.withLock { $0 = try? ControlChannel.send(Data("slow".utf8), to: path, timeout: 20) } }
        slowClient.start()
        XCTAssertEqual(slowArrived.wait(timeout: .now() + 20), .success)

        XCTAssertEqual(String(decoding: try ControlChannel.send(Data("fast".utf8), to: path, timeout: 20), as: UTF8.self), "answer to fast")
        fastAnswered.signal()
        XCTAssertTrue(eventually(timeout: 20) { slowAnswer.current != nil })
        XCTAssertEqual(slowAnswer.current.map { String(decoding: $0, as: UTF8.self) }, "answer to slow")
    }

    func testAClientThatNeverEndsItsLineHoldsNobodyUp() throws {
        server = try ControlServer(path: path, clientTimeout: 30) { _ in Data("status".utf8) }
        let dawdler = try connect()
        defer { close(dawdler) }
        XCTAssertEqual(write(dawdler, "{\"comm", 6), 6)

        XCTAssertEqual(String(decoding: try ControlChannel.send(Data("{}".utf8), to: path), as: UTF8.self), "status")
        XCTAssertTrue(isOpen(dawdler), "the dawdling client is still being waited for, not dropped")
    }

    func testAFloodOfClientsIsRefusedPastTheBound() throws {
        server = try ControlServer(path: path, clientTimeout: 30) { _ in Data("status".utf8) }
        let waiting = try (0..<16).map { _ in try connect() }
        defer { waiting.forEach { close($0) } }
        XCTAssertTrue(eventually(timeout: 20) { waiting.allSatisfy(isOpen) })

        let refused = try connect()
        defer { close(refused) }
        var byte: UInt8 = 0
        XCTAssertEqual(read(refused, &byte, 1), 0, "the seventeenth client is closed at once")
        XCTAssertTrue(waiting.allSatisfy(isOpen), "the sixteen are still waited for")
    }

    func testAStoppedServerNeverAnswersTheClientsOfTheNextOne() throws {
        // A server stopped while its accept thread is busy refusing a flood, then another one opened at once:
        // the stopped one's thread must not accept on a socket number that now belongs to the next server.
        for round in 0..<50 {
            let first = try ControlServer(path: path, clientTimeout: 30) { _ in Data("the stopped server".utf8) }
            let flood = (0..<20).compactMap { _ in try? connect() }
            first.stop()
            flood.forEach { close($0) }
            server = try ControlServer(path: path, clientTimeout: 5) { _ in Data("the new server".utf8) }
            for _ in 0..<3 {
                XCTAssertEqual(String(decoding: try ControlChannel.send(Data("{}".utf8), to: path, timeout: 5), as: UTF8.self),
                               "the new server", "round \(round)")
            }
            server?.stop()
        }
    }

    private func connect() throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    /// Whether the server still holds this connection open: nothing to read yet, and no end of stream.
    private func isOpen(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) < 0 && errno == EAGAIN
    }
}
