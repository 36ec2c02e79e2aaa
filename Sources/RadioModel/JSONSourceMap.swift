import Foundation

/// A place in a JSON document, written the way a reader would: `stations[2].streams[0].kind`.
struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component]

    init(_ components: [Component] = []) { self.components = components }

    /// The path a `Decoder` reports; array positions arrive as integer keys.
    init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    func appending(_ component: Component) -> JSONPath { JSONPath(components + [component]) }
    func appending(_ key: String) -> JSONPath { appending(.key(key)) }
    func appending(_ index: Int) -> JSONPath { appending(.index(index)) }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A JSON text that does not parse: where, inside which value, and why.
struct JSONSyntaxError: Error {
    /// Byte offset of the offending character (the text's length at an unexpected end).
    var offset: Int
    /// The innermost value being read when the error was found.
    var path: JSONPath
    var message: String
}

/// Where each value of a JSON text starts, so that a decoding error (which knows only a coding
/// path) or a validation error can name the line a person has to fix.
///
/// The scanner accepts what Foundation's JSONDecoder accepts (trailing commas, a leading BOM,
/// raw control characters in strings), so that a file the decoder read can always be mapped.
struct JSONSourceMap {
    enum Kind {
        case object, array, string, number, bool, null
    }

    struct Value {
        var offset: Int
        var kind: Kind
        /// The decoded text of a string, the literal of a number, true/false/null; empty for containers.
        var text: String

        /// How an error message names what it found here.
        var summary: String {
            switch kind {
            case .object: return "an object"
            case .array: return "an array"
            case .string:
                let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
                return "the string \"\(shown)\""
            case .number: return "the number \(text)"
            case .bool, .null: return text
            }
        }
    }

    struct Entry {
        var path: JSONPath
        var value: Value
    }

    /// Every value of the document, in the order they appear.
    private(set) var entries: [Entry]
    private var entryIndex: [JSONPath: Int]
    private let newlineOffsets: [Int]

    init(parsing data: Data) throws(JSONSyntaxError) {
        var scanner = Scanner(bytes: Array(data))
        try scanner.scanDocument()
        let entries = scanner.entries
        self.entries = entries
        // A repeated key keeps its last value, as the decoder does.
        entryIndex = Dictionary(entries.indices.map { (entries[$0].path, $0) }, uniquingKeysWith: { _, last in last })
        newlineOffsets = data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 - data.startIndex }
    }

    func value(at path: JSONPath) -> Value? { entryIndex[path].map { entries[$0].value } }

    /// 1-based line of a byte offset.
    func line(atOffset offset: Int) -> Int { JSONSourceMap.line(atOffset: offset, newlineOffsets: newlineOffsets) }

    static func line(atOffset offset: Int, in data: Data) -> Int {
        line(atOffset: offset, newlineOffsets: data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 - data.startIndex })
    }

    private static func line(atOffset offset: Int, newlineOffsets: [Int]) -> Int {
        // Count newlines before the offset by binary search.
        var low = 0, high = newlineOffsets.count
        while low < high {
            let mid = (low + high) / 2
            if newlineOffsets[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low + 1
    }
}

extension JSONSourceMap {
    /// A recursive-descent reader of RFC 8259 JSON that records where each value starts.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var path = JSONPath()
        var entries: [Entry] = []

        /// Deep enough for any catalogue, shallow enough that recursion cannot exhaust the stack.
        static let maximumDepth = 256

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func scanDocument() throws(JSONSyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            skipWhitespace()
            try scanValue(depth: 0)
            skipWhitespace()
            if position < bytes.count {
                throw error("unexpected \(describeCurrent()) after the end of the document")
            }
        }

        private mutating func scanValue(depth: Int) throws(JSONSyntaxError) {
            guard depth < Scanner.maximumDepth else { throw error("nested deeper than \(Scanner.maximumDepth) levels") }
            let start = position
            switch peek() ?? 0 { // 0 at the end, which falls to the default case
            case UInt8(ascii: "{"):
                record(Value(offset: start, kind: .object, text: ""))
                try scanObject(depth: depth)
            case UInt8(ascii: "["):
                record(Value(offset: start, kind: .array, text: ""))
                try scanArray(depth: depth)
            case UInt8(ascii: "\""):
                let text = try scanString()
                record(Value(offset: start, kind: .string, text: text))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let literal = try scanNumber()
                record(Value(offset: start, kind: .number, text: literal))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word = scanWord()
                switch word {
                case "true", "false": record(Value(offset: start, kind: .bool, text: word))
                case "null": record(Value(offset: start, kind: .null, text: word))
                default:
                    position = start
                    throw error("expected a value, got '\(word)'")
                }
            default:
                if let word = wordAtPosition() {
                    throw error("expected a value, got '\(word)' (strings need double quotes)")
                }
                if peek() == UInt8(ascii: "'") {
                    throw error("expected a value, got a single quote (strings need double quotes)")
                }
                throw error("expected a value, got \(describeCurrent())")
            }
        }

        private mutating func scanObject(depth: Int) throws(JSONSyntaxError) {
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { position += 1; return }
            while true {
                guard peek() == UInt8(ascii: "\"") else {
                    throw error("expected a field name in double quotes, got \(describeCurrent())")
                }
                let key = try scanString()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else {
                    throw error("expected ':' after \"\(key)\", got \(describeCurrent())")
                }
                position += 1
                skipWhitespace()
                path.components.append(.key(key))
                try scanValue(depth: depth + 1)
                path.components.removeLast()
                if try endOfContainer(close: "}", after: "the value of \"\(key)\"") { return }
            }
        }

        private mutating func scanArray(depth: Int) throws(JSONSyntaxError) {
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { position += 1; return }
            var index = 0
            while true {
                path.components.append(.index(index))
                try scanValue(depth: depth + 1)
                path.components.removeLast()
                if try endOfContainer(close: "]", after: "an array element") { return }
                index += 1
            }
        }

        /// After a member or element: true when `close` ends the container (a trailing comma before it
        /// is accepted, as the decoder accepts it), false when a comma announces another.
        private mutating func endOfContainer(close: Unicode.Scalar, after what: String) throws(JSONSyntaxError) -> Bool {
            skipWhitespace()
            switch peek() ?? 0 {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                guard peek() == UInt8(ascii: close) else { return false }
                position += 1
                return true
            case UInt8(ascii: close):
                position += 1
                return true
            default:
                throw error("expected ',' or '\(close)' after \(what), got \(describeCurrent())")
            }
        }

        /// Reads a string starting at its opening quote and returns its decoded text.
        private mutating func scanString() throws(JSONSyntaxError) -> String {
            let start = position
            position += 1
            var utf8: [UInt8] = []
            while true {
                guard let byte = peek() else {
                    position = start
                    throw error("string never ends (missing closing '\"')")
                }
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        position = start
                        throw error("string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    try scanEscape(into: &utf8)
                case 0x0A, 0x0D:
                    position = start
                    throw error("line break inside a string (missing closing '\"'?)")
                case 0..<0x20:
                    position -= 1
                    throw error("\(describeByte(byte)) inside a string must be written as an escape")
                default:
                    utf8.append(byte)
                }
            }
        }

        private mutating func scanEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
            let escapeStart = position - 1
            guard let letter = peek() else { throw error("string never ends (missing closing '\"')") }
            position += 1
            if let byte = Scanner.simpleEscapes[letter] {
                utf8.append(byte)
                return
            }
            guard letter == UInt8(ascii: "u") else {
                position = escapeStart
                let shown = (0x21..<0x7F).contains(letter) ? "'\\\(Character(Unicode.Scalar(letter)))'" : "'\\'"
                throw error("invalid escape \(shown) in a string (use \\\\ for a backslash)")
            }
            var scalarValue = try scanHexQuad(escapeStart: escapeStart)
            if (0xD800..<0xDC00).contains(scalarValue) {
                // A high surrogate must be followed by an escaped low one.
                guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                    position = escapeStart
                    throw error("invalid \\u escape: a lone surrogate")
                }
                position += 2
                let low = try scanHexQuad(escapeStart: escapeStart)
                guard (0xDC00..<0xE000).contains(low) else {
                    position = escapeStart
                    throw error("invalid \\u escape: a lone surrogate")
                }
                scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                position = escapeStart
                throw error("invalid \\u escape: a lone surrogate")
            }
            utf8.append(contentsOf: String(Character(scalar)).utf8)
        }

        private mutating func scanHexQuad(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count,
                  let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else {
                position = escapeStart
                throw error("invalid \\u escape: expected four hex digits")
            }
            position += 4
            return value
        }

        /// What follows a backslash, other than `u`, and the byte it stands for.
        private static let simpleEscapes: [UInt8: UInt8] = [
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
            UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]

        /// Reads `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` and returns its text.
        private mutating func scanNumber() throws(JSONSyntaxError) -> String {
            let start = position
            func digits() -> Int {
                let first = position
                while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
                return position - first
            }
            var valid = true
            if peek() == UInt8(ascii: "-") { position += 1 }
            if peek() == UInt8(ascii: "0") {
                position += 1
                valid = digits() == 0
            } else {
                valid = digits() > 0
            }
            if valid, peek() == UInt8(ascii: ".") {
                position += 1
                valid = digits() > 0
            }
            if valid, let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                position += 1
                if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
                valid = digits() > 0
            }
            // Letters glued to a number ("12kbit") make it invalid as a whole.
            let end = position
            let glued = scanWord()
            guard valid, glued.isEmpty else {
                let text = String(decoding: bytes[start..<end], as: UTF8.self) + glued
                position = start
                throw error("invalid number '\(text)'")
            }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        /// Consumes a run of ASCII letters, digits, '.', '_' (a bare word or what is glued to a token).
        private mutating func scanWord() -> String {
            let start = position
            while let byte = peek(), Scanner.isWordByte(byte) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        private func wordAtPosition() -> String? {
            var copy = self
            let word = copy.scanWord()
            return word.isEmpty ? nil : word
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        private mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func record(_ value: Value) { entries.append(Entry(path: path, value: value)) }

        private func error(_ message: String) -> JSONSyntaxError {
            JSONSyntaxError(offset: position, path: path, message: message)
        }

        /// Names the character at the current position for an error message.
        private func describeCurrent() -> String {
            guard position < bytes.count else { return "the end of the file" }
            let byte = bytes[position]
            if byte < 0x80 { return describeByte(byte) }
            let character = String(decoding: bytes[position..<min(position + 4, bytes.count)], as: UTF8.self).first
            if let character, character != "\u{FFFD}" { return "'\(character)'" }
            return "the byte 0x" + String(byte, radix: 16, uppercase: true)
        }

        private func describeByte(_ byte: UInt8) -> String {
            switch byte {
            case 0x0A, 0x0D: return "a line break"
            case 0x09: return "a tab"
            case UInt8(ascii: "'"): return "a single quote"
            case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
            default: return "the byte 0x" + String(byte, radix: 16, uppercase: true)
            }
        }
    }
}
