import Foundation

/// Identifiers made from names: station ids from a directory's names, programme ids from a guide's titles.
public enum Slug {
    /// Lowercase ASCII letters and digits joined by single dashes; other scripts transliterated
    /// ("Радио Рекорд" → "radio-rekord"). At most 48 characters, so ids fit in file names and terminals.
    public static func make(_ name: String) -> String {
        let ascii = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? name
        var slug = ""
        var dashPending = false
        for scalar in ascii.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if dashPending && !slug.isEmpty { slug += "-" }
                slug.unicodeScalars.append(scalar)
                dashPending = false
            } else {
                dashPending = true
            }
        }
        return String(slug.prefix(48)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
}
