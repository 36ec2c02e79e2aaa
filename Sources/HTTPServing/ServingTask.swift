import Foundation
import Hummingbird
import Logging
import NIOCore
import RadioModel
import ServiceLifecycle

/// A Hummingbird application running on a task of its own, from its bind to its stop: what the relay's
/// servers and the daemon's HTTP server run on. It runs in a ServiceGroup so that `stop()` can shut it
/// down gracefully: the listening socket closes and every connection already accepted is handled to
/// its end (cancelling the server instead would drop accepted connections unhandled, which SwiftNIO
/// treats as a fatal error).
public final class ServingTask: Sendable {
    /// Seconds connections get to finish after a stop before they are cancelled (a listener whose
    /// stream has not ended, an event stream).
    static let gracePeriod = Duration.seconds(2)

    private let task: Task<Void, Error>
    private let group: ServiceGroup

    private init(task: Task<Void, Error>, group: ServiceGroup) {
        self.task = task
        self.group = group
    }

    /// Builds the application with the hook that tells it listens, runs it, and waits until it does;
    /// a bind that fails (a port taken) throws here. Returns the port bound (the system's pick for 0).
    public static func start<App: ApplicationProtocol>(
        _ make: (_ ready: @escaping @Sendable (any Channel) async -> Void) -> App
    ) throws -> (ServingTask, port: Int) {
        let outcome = Locked<Result<Int, Error>?>(nil)
        let listening = DispatchSemaphore(value: 0)
        let app = make { channel in
            outcome.withLock { $0 = .success(channel.localAddress?.port ?? 0) }
            listening.signal()
        }
        var configuration = ServiceGroupConfiguration(services: [app], logger: quietLogger)
        configuration.maximumGracefulShutdownDuration = gracePeriod
        let group = ServiceGroup(configuration: configuration)
        let task = Task.detached {
            do {
                try await group.run()
            } catch {
                let first = outcome.withLock { outcome -> Bool in
                    guard outcome == nil else { return false }
                    outcome = .failure(error)
                    return true
                }
                if first { listening.signal() }
                throw error
            }
        }
        listening.wait()
        switch outcome.current! {
        case .success(let port): return (ServingTask(task: task, group: group), port)
        case .failure(let error): throw ServingError(reason: Self.reason(error))
        }
    }

    /// Stops serving and waits until it has: the port is free and every connection closed. Blocks:
    /// not for Swift concurrency's threads.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        let (task, group) = (task, group)
        Task.detached {
            await group.triggerGracefulShutdown()
            _ = await task.result
            done.signal()
        }
        done.wait()
    }

    private static func reason(_ error: Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") { return "the port is in use" }
        if text.contains("Cannot assign requested address") { return "not an address of this machine" }
        return text
    }

    /// Hummingbird's own log says nothing a user of onair needs; our events say what matters.
    public static let quietLogger: Logger = {
        var logger = Logger(label: "onair.http")
        logger.logLevel = .critical
        return logger
    }()
}

/// Why a server could not start: one plain line.
public struct ServingError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
