import Media

/// What `onair play` plays, in order: one recording, or a programme's episodes, shuffled or not,
/// repeated or not. `>`/`<` skip.
public struct PlayQueue: Sendable {
    public enum Repeat: String, Sendable, CaseIterable {
        case off, one, all
    }

    public let items: [PlayableItem]
    public let repeatMode: Repeat
    /// Indices into `items` in playing order.
    public private(set) var order: [Int]
    /// Where in `order` playback is; nil once the queue has run out.
    public private(set) var place: Int?

    public init(items: [PlayableItem], shuffle: Bool, repeatMode: Repeat) {
        var generator = SystemRandomNumberGenerator()
        self.init(items: items, shuffle: shuffle, repeatMode: repeatMode, using: &generator)
    }

    public init<Generator: RandomNumberGenerator>(items: [PlayableItem], shuffle: Bool, repeatMode: Repeat, using generator: inout Generator) {
        self.items = items
        self.repeatMode = repeatMode
        order = shuffle ? Array(items.indices).shuffled(using: &generator) : Array(items.indices)
        place = items.isEmpty ? nil : 0
    }

    public var current: PlayableItem? { place.map { items[order[$0]] } }

    /// The item playing ended by itself: the same again (repeat one), the next, or from the top (repeat all).
    public mutating func advanceAfterEnd() {
        guard let place else { return }
        switch repeatMode {
        case .one: break
        case .all: self.place = (place + 1) % order.count
        case .off: self.place = place + 1 < order.count ? place + 1 : nil
        }
    }

    /// `>` (+1) or `<` (-1): the listener skips, past the end only with repeat all.
    public mutating func skip(by step: Int) {
        guard let place else { return }
        let next = place + step
        if repeatMode == .all {
            self.place = (next % order.count + order.count) % order.count
        } else {
            self.place = next < 0 ? 0 : (next < order.count ? next : nil)
        }
    }
}
