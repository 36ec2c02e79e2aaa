import Foundation

/// Reading one catalogue file, with errors that name the line and field to fix.
enum CatalogueFile {
    static func read(_ url: URL) throws(CatalogueError) -> CatalogueDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CatalogueError(path: url.path, message: "cannot read the file: \(reason(for: error))")
        }
        return try decode(data, path: url.path)
    }

    static func decode(_ data: Data, path: String) throws(CatalogueError) -> CatalogueDocument {
        let document: CatalogueDocument
        do {
            document = try JSONDecoder().decode(CatalogueDocument.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, in: data, path: path)
        } catch {
            throw CatalogueError(path: path, message: "\(error)")
        }
        do {
            try CatalogueValidator.validate(document)
        } catch {
            // The file decoded, so it parses: the source map is there to be had.
            let line = (try? JSONSourceMap(parsing: data))?.lineOfValue(at: error.path)
            throw CatalogueError(path: path, line: line, field: error.path.description, message: error.message)
        }
        return document
    }

    /// Turns JSONDecoder's error (a coding path at best, no position) into one that names a line.
    private static func describe(_ error: DecodingError, in data: Data, path: String) -> CatalogueError {
        let map: JSONSourceMap
        do {
            map = try JSONSourceMap(parsing: data)
        } catch {
            return CatalogueError(path: path, line: JSONSourceMap.line(atOffset: error.offset, in: data),
                                  field: error.path.description, message: error.message)
        }
        func located(_ jsonPath: JSONPath, _ message: String) -> CatalogueError {
            CatalogueError(path: path, line: map.lineOfValue(at: jsonPath), field: jsonPath.description, message: message)
        }
        switch error {
        case .keyNotFound(let key, let context):
            // Point at the object that lacks the field: the field itself has no line.
            return located(JSONPath(codingPath: context.codingPath), "missing required field \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let jsonPath = JSONPath(codingPath: context.codingPath)
            let found = map.value(at: jsonPath)?.summary ?? "something else"
            return located(jsonPath, "expected \(phrase(for: type)), got \(found)")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The text parses, yet the decoder calls it invalid: it says so for a number that does not
            // fit the integer it wanted, and the only numbers in the format are integers.
            if let entry = map.entries.first(where: { $0.value.kind == .number && !fitsInteger($0.value.text) }) {
                return located(entry.path, "expected a whole number, got \(entry.value.text)")
            }
            return CatalogueError(path: path, message: context.debugDescription)
        case .dataCorrupted(let context):
            return located(JSONPath(codingPath: context.codingPath), context.debugDescription)
        @unknown default:
            return CatalogueError(path: path, message: "\(error)")
        }
    }

    private static func fitsInteger(_ literal: String) -> Bool {
        if Int(literal) != nil { return true }
        guard let value = Double(literal) else { return false }
        return value.rounded() == value && abs(value) < 0x1p63
    }

    /// How an error message names the type the decoder wanted.
    private static func phrase(for type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is any BinaryInteger.Type: return "a whole number"
        case is any BinaryFloatingPoint.Type: return "a number"
        case is [Any].Type: return "an array"
        case is [String: Any].Type: return "an object"
        default: return "\(type)"
        }
    }

    /// The OS's words for a failed read ("No such file or directory"), not Foundation's sentence.
    static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        // On Linux the underlying error is a POSIXError value, which `as? NSError` does not match.
        if let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}

extension JSONSourceMap {
    /// The line where the value at `path` starts; for a path that is not in the file (a missing
    /// field), the line of its nearest enclosing value.
    func lineOfValue(at path: JSONPath) -> Int? {
        var path = path
        while true {
            if let value = value(at: path) { return line(atOffset: value.offset) }
            guard !path.components.isEmpty else { return nil }
            path.components.removeLast()
        }
    }
}
