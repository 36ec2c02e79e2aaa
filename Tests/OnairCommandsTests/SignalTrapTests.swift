import Foundation
@testable import OnairCommands
import Synchronization
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What a command's Ctrl-C and SIGTERM handling leaves behind for the processes onair starts and for
/// the next command run in the same process (the tests run commands in-process, one after another).
final class SignalTrapTests: XCTestCase {
    func testAfterTwoCommandsTrappedSignalsAChildStillStopsOnSIGTERMAndTheLiveTrapHearsIt() throws {
        let heard = Heard()
        // Ignored until Dispatch's own handler takes the signal over (when it registers the first
        // trap's source), then never ignored again: the second command comes after that.
        var first: SignalTrap? = SignalTrap {}
        XCTAssertTrue(eventually(timeout: 10) { Self.aHandlerTakes(SIGTERM) }, "SIGTERM is not handled after a trap")
        withExtendedLifetime(first) {}
        first = nil
        let second = SignalTrap { heard.count.withLock { $0 += 1 } }
        defer { withExtendedLifetime(second) {} }
        guard eventually(timeout: 10, { Self.aHandlerTakes(SIGTERM) }) else {
            return XCTFail("SIGTERM is ignored after a second trap: every child would be deaf to it")
        }
        let sleeper = try ProcessRunner.start("sleep", ["30"])
        sleeper.stop(grace: 20)
        let ended = sleeper.result()
        XCTAssertTrue(ended.terminatedBySignal)
        XCTAssertEqual(ended.status, SIGTERM, "the child ignored SIGTERM and was killed after its grace")

        kill(getpid(), SIGTERM)
        XCTAssertTrue(eventually(timeout: 10) { heard.count.withLock { $0 } == 1 }, "the live trap did not hear SIGTERM")
    }

    /// Whether `number` goes to a handler: neither ignored nor left to its default action.
    private static func aHandlerTakes(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0, let handler = current.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private final class Heard: Sendable {
        let count = Mutex(0)
    }
}
