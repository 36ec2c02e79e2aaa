import RadioModel
/// Rows as aligned columns for a terminal, two spaces apart. Widths count terminal cells (wide East
/// Asian characters and emoji take two); a column may be capped, its longer cells cut with "…".
/// The last column is never padded.
enum TextTable {
    static func render(_ rows: [[String]], maxWidths: [Int?] = []) -> String {
        let columnCount = rows.map(\.count).max() ?? 0
        let cells = rows.map { row in
            row.enumerated().map { column, cell in
                let limit = column < maxWidths.count ? maxWidths[column] : nil
                return limit.map { fitted(printable(cell), width: $0) } ?? printable(cell)
            }
        }
        let widths = (0..<columnCount).map { column in
            cells.map { column < $0.count ? width(of: $0[column]) : 0 }.max() ?? 0
        }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - width(of: cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Text with control characters blanked: station names come from other people's servers and
    /// directories, and an escape sequence must not reach the terminal.
    static func printable(_ text: String) -> String { UntrustedText.printable(text) }

    /// `text` cut to at most `width` terminal cells, with an ellipsis where it was cut.
    static func fitted(_ text: String, width limit: Int) -> String {
        guard width(of: text) > limit else { return text }
        var fitted = ""
        var used = 0
        for character in text {
            let characterWidth = width(of: String(character))
            guard used + characterWidth <= limit - 1 else { break }
            fitted.append(character)
            used += characterWidth
        }
        return fitted + "…"
    }

    /// Terminal cells `text` takes.
    static func width(of text: String) -> Int {
        text.reduce(0) { total, character in
            guard let scalar = character.unicodeScalars.first else { return total }
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                return total + 2
            default:
                return total + (scalar.properties.isEmojiPresentation ? 2 : 1)
            }
        }
    }
}
