import Foundation

/// EXT-X-DEFINE (RFC 8216bis §4.4.2.3): the variables a playlist defines, and `{$name}` replaced by their
/// values in URI lines and attribute values. Bounded, since a hostile playlist could otherwise multiply
/// its size by referring to a long value again and again.
struct PlaylistVariables {
    static let maxCount = 64
    static let maxValueLength = 4096
    /// All text that substitution writes, for one playlist: no more than the playlist itself may hold.
    static let maxExpandedLength = PlaylistParser.maxBytes

    /// Where the playlist came from: QUERYPARAM reads its query, errors name it.
    let url: String
    /// The master playlist's variables, for IMPORT in a media playlist; nil while reading a master.
    let imported: [String: String]?
    private(set) var values: [String: String] = [:]
    private var expandedLength = 0

    init(url: String, imported: [String: String]?) {
        self.url = url; self.imported = imported
    }

    /// Reads one `#EXT-X-DEFINE:` line.
    mutating func define(_ line: String, number: Int) throws {
        func fail(_ message: String) -> PlaylistError { PlaylistError(url: url, line: number, message: message) }
        let attributes = PlaylistParser.attributes(of: line)
        let name: String, value: String
        if let defined = attributes["NAME"] {
            guard let given = attributes["VALUE"] else { throw fail("EXT-X-DEFINE NAME=\"\(defined.prefix(40))\" without a VALUE") }
            (name, value) = (defined, given)
        } else if let parameter = attributes["QUERYPARAM"] {
            let items = URLComponents(string: url)?.queryItems ?? []
            guard let given = items.first(where: { $0.name == parameter })?.value else {
                throw fail("EXT-X-DEFINE QUERYPARAM=\"\(parameter.prefix(40))\": the playlist's URL has no such query parameter")
            }
            (name, value) = (parameter, given)
        } else if let importedName = attributes["IMPORT"] {
            guard let imported else {
                throw fail("EXT-X-DEFINE IMPORT=\"\(importedName.prefix(40))\" belongs in a media playlist, not a master")
            }
            guard let given = imported[importedName] else {
                throw fail(imported.isEmpty
                    ? "EXT-X-DEFINE IMPORT=\"\(importedName.prefix(40))\": no master playlist's variables reached this media playlist"
                    : "EXT-X-DEFINE IMPORT=\"\(importedName.prefix(40))\": the master playlist defines no such variable")
            }
            (name, value) = (importedName, given)
        } else {
            throw fail("EXT-X-DEFINE without NAME, QUERYPARAM or IMPORT")
        }
        guard !name.isEmpty, name.allSatisfy(Self.isNameCharacter) else {
            throw fail("EXT-X-DEFINE name '\(name.prefix(40))' is not made of letters, digits, '-' and '_'")
        }
        guard values[name] == nil else { throw fail("EXT-X-DEFINE defines {$\(name.prefix(40))} a second time") }
        guard values.count < Self.maxCount else { throw fail("more than \(Self.maxCount) EXT-X-DEFINE variables") }
        guard value.count <= Self.maxValueLength else {
            throw fail("EXT-X-DEFINE {$\(name.prefix(40))} has a value longer than \(Self.maxValueLength) characters")
        }
        values[name] = value
    }

    /// `text` with each `{$name}` replaced by its value; a value is never searched for references itself.
    mutating func substitute(_ text: String, line: Int) throws -> String {
        guard text.contains("{$") else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.range(of: "{$") {
            result += rest[..<start.lowerBound]
            let afterOpening = rest[start.upperBound...]
            let name = afterOpening.prefix(while: Self.isNameCharacter)
            guard !name.isEmpty, afterOpening.dropFirst(name.count).first == "}" else {
                // Not a reference ("{$" then no name): kept as written.
                result += "{$"
                rest = afterOpening
                continue
            }
            guard let value = values[String(name)] else {
                throw PlaylistError(url: url, line: line, message: "undefined variable {$\(name.prefix(40))}: no EXT-X-DEFINE before it names it")
            }
            result += value
            rest = afterOpening.dropFirst(name.count + 1)
        }
        result += rest
        expandedLength += result.count
        guard expandedLength <= Self.maxExpandedLength else {
            throw PlaylistError(url: url, line: line, message: "EXT-X-DEFINE variables expand to more than \(Self.maxExpandedLength) characters")
        }
        return result
    }

    /// A tag's attribute list with its values substituted (after splitting, so a value cannot add attributes).
    mutating func attributes(of line: String, number: Int) throws -> [String: String] {
        var attributes = PlaylistParser.attributes(of: line)
        for (key, value) in attributes where value.contains("{$") {
            attributes[key] = try substitute(value, line: number)
        }
        return attributes
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}
