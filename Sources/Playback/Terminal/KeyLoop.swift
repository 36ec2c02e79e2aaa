/// The loop every player runs on a terminal: redraw the view, take keys, watch the sleep timer, until
/// the audio has ended.
enum KeyLoop {
    /// How often keys are looked for and the view redrawn.
    static let tick = 0.25

    /// - Parameters:
    ///   - handle: acts on a key; true when it ends the player (which is then stopping).
    ///   - sleepExpired: the sleep timer ran out; the player is to stop.
    static func run(on terminal: TerminalSession, controls: PlayerControls, lines: () -> [String],
                    hasFinished: () -> Bool, handle: (PlayerAction) -> Bool, sleepExpired: () -> Void) {
        var ending = false
        while true {
            terminal.draw(lines())
            if hasFinished() { return }
            for press in terminal.readKeys(timeout: tick) {
                guard !ending, let action = PlayerAction.forKey(press) else { continue }
                ending = handle(action)
            }
            if !ending, controls.sleepHasExpired() {
                ending = true
                sleepExpired()
            }
        }
    }
}
