import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// The terminal while the player's view is up: keys arrive one press at a time without echo, the
/// view redraws in place, and the terminal is put back as it was when the player ends (also after
/// Ctrl-C or SIGTERM, which end the player normally).
public final class TerminalSession: @unchecked Sendable {  // drawn and read from the key loop; restore from anywhere (`restored`: Locked)
    private var saved = termios()
    private var drawnLines = 0
    private let restored = Locked(false)

    /// Whether keys and a view make sense: both stdin and stdout are a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    public init() throws {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw TerminalError("cannot read the terminal's settings") }
        var raw = saved
        // No line editing, no echo; signals (Ctrl-C) and output processing stay as they are.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { throw TerminalError("cannot set the terminal up") }
        write("\u{1B}[?25l")  // hide the cursor while the view redraws
    }

    deinit { restore() }

    /// Puts the terminal back: settings, cursor, and the view left on screen above the prompt.
    public func restore() {
        guard restored.withLock({ (restored) -> Bool in
            defer { restored = true }
            return !restored
        }) else { return }
        write("\u{1B}[?25h")
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Waits up to `timeout` seconds for key presses; each element is one press.
    public func readKeys(timeout: Double) -> [[UInt8]] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0, descriptor.revents & Int16(POLLIN) != 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return Self.splitPresses(Array(buffer[0..<count]))
    }

    /// Bytes read at once may hold several presses; an escape sequence (ESC [ X) is one.
    static func splitPresses(_ bytes: [UInt8]) -> [[UInt8]] {
        var presses: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F {
                presses.append(Array(bytes[index...index + 2]))
                index += 3
            } else {
                presses.append([bytes[index]])
                index += 1
            }
        }
        return presses
    }

    /// Replaces the previous view with `lines`, each made printable (a station's name, a programme, a title
    /// or a server's words: the terminal would obey their escape sequences) and cut to the terminal's width
    /// so nothing wraps.
    public func draw(_ lines: [String]) {
        var size = winsize()
        let width = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        var text = drawnLines > 0 ? "\r\u{1B}[\(drawnLines)A" : ""
        for line in lines {
            text += "\u{1B}[2K" + String(UntrustedText.printable(line).prefix(width - 1)) + "\n"
        }
        // Lines left over from a taller view are cleared.
        if drawnLines > lines.count {
            for _ in lines.count..<drawnLines { text += "\u{1B}[2K\n" }
            text += "\u{1B}[\(drawnLines - lines.count)A"
        }
        drawnLines = lines.count
        write(text)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}

public struct TerminalError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
