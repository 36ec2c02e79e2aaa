import Foundation

/// Something that takes the decoded PCM: a file, a pipe, a speaker, an encoder.
public protocol PCMConsumer: AnyObject, Sendable {
    /// A short name for messages: "wav:/tmp/x.wav".
    var label: String { get }
    /// Interleaved PCM in the pipeline's format, on the decode thread. Throwing detaches the consumer.
    func consume(_ pcm: UnsafeRawBufferPointer) throws
    /// No more PCM will come: flush and close.
    func finish()
}

/// Hands every PCM buffer of one decoder to any number of consumers, which attach and detach while
/// the stream runs.
public final class PCMFanOut: @unchecked Sendable {
    public struct Token: Hashable, Sendable { let raw: Int }

    private let lock = NSLock()
    private var consumers: [Token: PCMConsumer] = [:]
    private var nextToken = 0
    private var finished = false
    private let onFailure: @Sendable (PCMConsumer, Error) -> Void

    public init(onFailure: @escaping @Sendable (PCMConsumer, Error) -> Void = { _, _ in }) {
        self.onFailure = onFailure
    }

    @discardableResult
    public func attach(_ consumer: PCMConsumer) -> Token {
        lock.withLock {
            nextToken += 1
            let token = Token(raw: nextToken)
            consumers[token] = consumer
            return token
        }
    }

    /// Detaches and finishes a consumer; the stream goes on for the others.
    public func detach(_ token: Token) {
        let consumer = lock.withLock { consumers.removeValue(forKey: token) }
        consumer?.finish()
    }

    public var count: Int { lock.withLock { consumers.count } }

    func deliver(_ pcm: UnsafeRawBufferPointer) {
        let current = lock.withLock { consumers }
        for (token, consumer) in current {
            do {
                try consumer.consume(pcm)
            } catch {
                lock.withLock { _ = consumers.removeValue(forKey: token) }
                consumer.finish()
                onFailure(consumer, error)
            }
        }
    }

    /// Finishes every consumer: the stream is over.
    func finishAll() {
        let all = lock.withLock { () -> [PCMConsumer] in
            defer { consumers = [:] }
            return Array(consumers.values)
        }
        all.forEach { $0.finish() }
    }
}
