import Foundation

/// Text that came from outside — a stream's title, a directory's station name, a feed, a guide, a request —
/// as onair may print it to a terminal, write it into XML, a cue sheet, a tag, a log line or a metric
/// label: one line, with no control character (a terminal would obey an escape sequence; XML 1.0 forbids
/// most of them) and no bidirectional override (it reorders what a reader sees). The one function for it.
public enum UntrustedText {
    public static func printable(_ text: String, maxLength: Int? = nil) -> String {
        // Most titles are printable ASCII, with nothing to take out: Unicode's property tables are read only for
        // the rest (every stream title passes here, on the hot path of a recording).
        let line = text.utf8.allSatisfy { (0x20...0x7E).contains($0) } ? text : withoutControls(text)
        guard let maxLength, line.count > maxLength else { return line }
        return String(line.prefix(maxLength)) + "…"
    }

    private static func withoutControls(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                kept.append(scalar)
                lastWasSpace = scalar == " "
                continue
            }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator {
                // A line break or a tab becomes one space, so words stay apart; anything else goes.
                if [0x09, 0x0A, 0x0D, 0x2028, 0x2029].contains(scalar.value), !lastWasSpace { kept.append(" "); lastWasSpace = true }
                continue
            }
            if bidiControls.contains(scalar.value) { continue }
            kept.append(scalar)
            lastWasSpace = false
        }
        return String(kept)
    }

    /// JSON as onair prints it (`--json`): every C1 control and bidirectional control written as a `\uXXXX`
    /// escape. JSON escapes the C0 controls already but leaves these raw, and a terminal obeys U+009B as it
    /// does ESC [. They can stand only inside strings, so the JSON stays valid and reads back exactly as it came.
    public static func escapingControls(inJSON json: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) || bidiControls.contains(scalar.value) || [0x2028, 0x2029].contains(scalar.value) {
                escaped.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the marks U+200E/U+200F, U+061C.
    private static let bidiControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                   0x2066, 0x2067, 0x2068, 0x2069]
}
