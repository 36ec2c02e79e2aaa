/// What a listener asks of the player, from a key.
public enum PlayerAction: Equatable, Sendable {
    case togglePause, goLive, volumeUp, volumeDown, toggleMute, toggleRecording, cycleSleepTimer
    case nextFavourite, previousFavourite, quit
    case seek(seconds: Double), faster, slower, nextChapter, previousChapter, nextInQueue, previousInQueue

    /// How far ← and → move.
    public static let seekStep = 15.0

    /// The action a key's bytes stand for (one key press: a byte, or an escape sequence for arrows).
    public static func forKey(_ bytes: [UInt8]) -> PlayerAction? {
        switch bytes {
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43]: return .seek(seconds: seekStep)   // →
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44]: return .seek(seconds: -seekStep)  // ←
        case _ where bytes.count != 1: return nil
        default: break
        }
        switch Character(Unicode.Scalar(bytes[0])) {
        case " ": return .togglePause
        case "l": return .goLive
        case "+", "=": return .volumeUp
        case "-", "_": return .volumeDown
        case "m": return .toggleMute
        case "r": return .toggleRecording
        case "s": return .cycleSleepTimer
        case "n": return .nextFavourite
        case "p": return .previousFavourite
        case "q", "\u{03}", "\u{04}": return .quit  // q, Ctrl-C, Ctrl-D
        case "]": return .faster
        case "[": return .slower
        case ".": return .nextChapter
        case ",": return .previousChapter
        case ">": return .nextInQueue
        case "<": return .previousInQueue
        default: return nil
        }
    }
}
