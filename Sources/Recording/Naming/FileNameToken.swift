import Foundation

/// Makes one piece of text safe as (part of) a file name, whatever a station or a stream title says:
/// no path separators, no `..`, no control characters, nothing a shell or another OS trips over, and
/// bounded in length. Titles come from other people's servers: `../../x` or `/etc/passwd` must end up
/// as harmless names inside the recordings directory.
public enum FileNameToken {
    /// Longest token, in UTF-8 bytes: a whole name must stay under the usual 255-byte limit.
    public static let maxBytes = 120

    public static func sanitised(_ text: String, maxBytes: Int = FileNameToken.maxBytes) -> String {
        var cleaned = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/", "\\":
                cleaned.append("-")
            case ":", "*", "?", "\"", "<", ">", "|":
                // Not allowed on FAT/NTFS (USB sticks, SMB shares), where recordings often end up.
                cleaned.append(" ")
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator {
                    cleaned.append(" ")
                } else {
                    cleaned.unicodeScalars.append(scalar)
                }
            }
        }
        // "..": a run of dots never stays, so no component can climb out of its directory.
        while cleaned.contains("..") { cleaned = cleaned.replacingOccurrences(of: "..", with: ".") }
        let collapsed = cleaned.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        return trimmed(truncated(collapsed, maxBytes: maxBytes))
    }

    /// Leading dots would hide the file; leading dashes read as options; trailing dots and spaces vanish on Windows.
    static func trimmed(_ text: String) -> String {
        var result = Substring(text)
        while let first = result.first, first == "." || first == "-" || first == " " { result = result.dropFirst() }
        while let last = result.last, last == "." || last == " " || last == "-" { result = result.dropLast() }
        return String(result)
    }

    /// At most `maxBytes` of UTF-8, cut between characters.
    static func truncated(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.count
            guard used + size <= maxBytes else { break }
            result.append(character)
            used += size
        }
        return result
    }
}
