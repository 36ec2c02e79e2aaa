import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SharedStore
import Store
import TestSupport
import XCTest

/// The shared database's connection when the server does not answer: one plain line after the
/// timeout, never a caller held for as long as the kernel keeps a dead connection.
final class SharedDatabaseTests: XCTestCase {
    func testAServerThatAcceptsButNeverAnswersIsOnePlainLineAfterTheTimeout() throws {
        // The kernel completes the TCP handshake for the listening socket; nobody ever reads or answers.
        let silent = try LoopbackSocket.listen()
        defer { close(silent.fd) }
        let began = Date()
        XCTAssertThrowsError(try SharedDatabase(location: try PostgresLocation(url: "postgresql://onair@127.0.0.1:\(silent.port)/onair"),
                                                timeout: 1)) { error in
            XCTAssertEqual("\(error)", "database postgresql://onair@127.0.0.1:\(silent.port)/onair: cannot connect: no answer within 1 s")
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 5, "given up after the timeout")
    }

    func testAStatementUnansweredPastTheTimeoutFailsAndTheNextCallConnectsAgain() throws {
        let server: PostgresHarness
        do {
            server = try PostgresHarness.shared.get()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        let database = try SharedDatabase(location: try PostgresLocation(url: server.url), timeout: 1)
        let began = Date()
        XCTAssertThrowsError(try database.query("SELECT pg_sleep(5)")) { error in
            XCTAssertEqual("\(error)", "database \(database.location): no answer within 1 s")
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 4, "given up after the timeout, not when the statement ends")
        XCTAssertEqual(try database.query("SELECT 41 + 1").first?.decode(Int.self), 42, "a new connection answers")
    }
}
