import Hummingbird
import RadioModel

/// Answers encoded once per version of what they are made of, by what was asked: encoding the JSON was most
/// of what the list routes cost (BENCHMARKS.md, api-latency), and what they list changes far less often than
/// it is asked for. A new version forgets every answer of the old; at most `capacity` are kept (asked with
/// ever-new queries, the cache starts again rather than grow).
final class EncodedAnswers<Version: Equatable & Sendable, Question: Hashable & Sendable>: Sendable {
    private let capacity: Int
    private let kept = Locked<(version: Version, answers: [Question: ByteBuffer])?>(nil)

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The answer to `question` at `version`: the one encoded before, or `encode`'s, kept for next time.
    func answer(_ question: Question, at version: Version, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if let kept = kept.current, kept.version == version, let answer = kept.answers[question] { return answer }
        let answer = try encode()
        kept.withLock { kept in
            if kept?.version != version || kept!.answers.count >= capacity { kept = (version, [:]) }
            kept!.answers[question] = answer
        }
        return answer
    }
}
