import Foundation
import XCTest
@testable import RadioModel

final class JSONSourceMapTests: XCTestCase {
    private func map(_ text: String) throws -> JSONSourceMap { try JSONSourceMap(parsing: Data(text.utf8)) }

    private func line(of path: String, in map: JSONSourceMap) -> Int? {
        map.entries.first { $0.path.description == path }.map { map.line(atOffset: $0.value.offset) }
    }

    func testFindsTheLineOfNestedValues() throws {
        let sourceMap = try map("""
        {
          "a": [
            {"b": 1},
            {
              "b": [true, null,
                    "x"]
            }
          ],
          "c": {"d": {}}
        }
        """)
        XCTAssertEqual(line(of: "", in: sourceMap), 1)
        XCTAssertEqual(line(of: "a", in: sourceMap), 2)
        XCTAssertEqual(line(of: "a[0].b", in: sourceMap), 3)
        XCTAssertEqual(line(of: "a[1]", in: sourceMap), 4)
        XCTAssertEqual(line(of: "a[1].b[1]", in: sourceMap), 5)
        XCTAssertEqual(line(of: "a[1].b[2]", in: sourceMap), 6)
        XCTAssertEqual(line(of: "c.d", in: sourceMap), 9)
        XCTAssertEqual(sourceMap.value(at: JSONPath([.key("a"), .index(1), .key("b"), .index(2)]))?.summary, "the string \"x\"")
        XCTAssertEqual(sourceMap.value(at: JSONPath([.key("a"), .index(1), .key("b"), .index(0)]))?.summary, "true")
        XCTAssertEqual(sourceMap.value(at: JSONPath([.key("c")]))?.summary, "an object")
    }

    func testStringsWithStructuralCharactersAndEscapesDoNotConfuseNesting() throws {
        let sourceMap = try map("""
        {"k\\"ey": "{[,:\\"]}",
         "é\\u00e9\\ud83c\\udfb5": "\\n\\t\\\\",
         "after": 1}
        """)
        XCTAssertEqual(sourceMap.value(at: JSONPath([.key("k\"ey")]))?.text, "{[,:\"]}")
        XCTAssertEqual(sourceMap.value(at: JSONPath([.key("éé🎵")]))?.text, "\n\t\\")
        XCTAssertEqual(line(of: "after", in: sourceMap), 3)
    }

    func testANestedMissingPathFallsBackToTheEnclosingValue() throws {
        let sourceMap = try map("{\n  \"a\": {\n    \"b\": 1\n  }\n}")
        XCTAssertEqual(sourceMap.lineOfValue(at: JSONPath([.key("a"), .key("missing"), .index(3)])), 2)
    }

    func testCodingPathsBecomeReadablePaths() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
        }
        let path = JSONPath(codingPath: [Key(stringValue: "stations"), Key(intValue: 2), Key(stringValue: "streams"),
                                         Key(intValue: 0), Key(stringValue: "kind")])
        XCTAssertEqual(path.description, "stations[2].streams[0].kind")
    }

    func testSyntaxErrorsCarryOffsetPathAndReason() {
        let cases: [(text: String, offset: Int, path: String, message: String)] = [
            ("[1, 2", 5, "", "expected ',' or ']' after an array element, got the end of the file"),
            ("{\"a\": [1, 01]}", 10, "a[1]", "invalid number '01'"),
            ("{\"a\": 12kbit}", 6, "a", "invalid number '12kbit'"),
            ("{\"a\" 1}", 5, "", "expected ':' after \"a\", got '1'"),
            ("{\"a\": tru}", 6, "a", "expected a value, got 'tru'"),
            ("{\"a\": \"\\u12\"}", 7, "a", "invalid \\u escape: expected four hex digits"),
            ("{\"a\": \"\\ud800\"}", 7, "a", "invalid \\u escape: a lone surrogate"),
            ("{\"a\": \"x\ty\"}", 8, "a", "a tab inside a string must be written as an escape"),
            ("{\"a\": 1,, }", 8, "", "expected a field name in double quotes, got ','"),
            ("{\"a\": “x”}", 6, "a", "expected a value, got '“'"),
            ("[" + String(repeating: "[", count: 300), 256, String(repeating: "[0]", count: 256), "nested deeper than 256 levels"),
        ]
        for item in cases {
            XCTAssertThrowsError(try map(item.text), item.text) { error in
                guard let error = error as? JSONSyntaxError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.offset, item.offset, item.text)
                XCTAssertEqual(error.path.description, item.path, item.text)
                XCTAssertEqual(error.message, item.message, item.text)
            }
        }
    }

    func testInvalidUTF8InAStringIsReported() {
        var data = Data("{\"a\": \"".utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data("\"}".utf8))
        XCTAssertThrowsError(try JSONSourceMap(parsing: data)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "string is not valid UTF-8")
        }
    }

    func testALeadingByteOrderMarkIsSkipped() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(contentsOf: Data("{\"a\": 1}".utf8))
        XCTAssertEqual(try JSONSourceMap(parsing: data).value(at: JSONPath([.key("a")]))?.text, "1")
    }
}
