import Hummingbird
import RadioModel

/// Answers encoded once per version of what they are made of, by what was asked: encoding the JSON was most
/// of what the list routes cost (BENCHMARKS.md, api-latency), and what they list changes far less often than
/// it is asked for. A new version forgets every answer of the old; at most `budget` bytes are kept (asked
/// with ever-new queries, the cache starts again rather than grow).
final class EncodedAnswers<Version: Equatable & Sendable, Question: Hashable & Sendable>: Sendable {
    private let budget: Int
    private let kept = Locked<(version: Version, answers: [Question: ByteBuffer], bytes: Int)?>(nil)

    init(budget: Int = 16 << 20) {
        self.budget = budget
    }

    /// The answer to `question` at `version`: the one encoded before, or `encode`'s, kept for next time.
    func answer(_ question: Question, at version: Version, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if let kept = kept.current, kept.version == version, let answer = kept.answers[question] { return answer }
        let answer = try encode()
        kept.withLock { kept in
            if kept?.version != version || kept!.bytes + answer.readableBytes > budget { kept = (version, [:], 0) }
            if kept!.answers.updateValue(answer, forKey: question) == nil { kept!.bytes += answer.readableBytes }
        }
        return answer
    }
}
