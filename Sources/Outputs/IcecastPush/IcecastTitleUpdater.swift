import Foundation
import RadioModel
import StreamInput

/// Sets the pushed mount's title through Icecast's admin call (`/admin/metadata?mode=updinfo`),
/// with the source's credentials. Requests go through TransferEngine without blocking anyone, one at
/// a time, so titles cannot overtake each other; only the newest of those that came meanwhile is sent.
final class IcecastTitleUpdater: Sendable {
    private let target: IcecastTarget
    private let label: String
    private let onEvent: @Sendable (StreamEvent) -> Void
    private struct State {
        var inFlight = false
        var waiting: String?
    }
    private let state = Locked(State())

    init(target: IcecastTarget, label: String, onEvent: @escaping @Sendable (StreamEvent) -> Void) {
        self.target = target
        self.label = label
        self.onEvent = onEvent
    }

    func update(_ title: String) {
        let send = state.withLock { (state) -> Bool in
            guard !state.inFlight else {
                state.waiting = title
                return false
            }
            state.inFlight = true
            return true
        }
        if send { request(title) }
    }

    private func request(_ title: String) {
        let call = TransferRequest(url: target.titleUpdateURL(title), headers: [("Authorization", target.basicAuthorization)],
                                   connectTimeout: 5, stallTimeout: 5)
        TransferEngine.shared.load(call, maxBytes: 64 * 1024) { [self] result in
            switch result {
            case .success(let response) where String(decoding: response.body, as: UTF8.self).contains("<return>1</return>"):
                break
            case .success(let response):
                onEvent(.warning("\(label): Icecast did not take the title: \(Self.message(in: response.body))"))
            case .failure(let error):
                onEvent(.warning("\(label): cannot set the title: \(error.message)"))
            }
            let next = state.withLock { (state) -> String? in
                defer { state.waiting = nil }
                state.inFlight = state.waiting != nil
                return state.waiting
            }
            if let next { request(next) }
        }
    }

    /// Icecast's `<message>` from an admin reply.
    private static func message(in body: Data) -> String {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "<message>"), let end = text.range(of: "</message>", range: start.upperBound..<text.endIndex) else {
            return "unexpected reply"
        }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
