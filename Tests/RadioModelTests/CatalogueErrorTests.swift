import Foundation
import XCTest
@testable import RadioModel

/// Every error must be one line naming the file, the line and the field to fix.
final class CatalogueSyntaxErrorTests: XCTestCase {
    func testAMissingCommaIsReportedAtTheNextField() {
        let text = """
        {
          "version": 1,
          "stations": [
            {
              "id": "fip"
              "name": "FIP",
        """
        XCTAssertEqual(catalogueError(text)?.description,
                       #"/cfg/stations.json:6: stations[0]: expected ',' or '}' after the value of "id", got '"'"#)
    }

    func testAnUnclosedStringIsReportedWhereItStarts() {
        let text = catalogueText([stationText(name: "FIP, \n      \"country\": \"FR")])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "FIP, ", in: text)): stations[0].name: line break inside a string (missing closing '\"'?)")
    }

    func testSingleQuotesAreCalledOut() {
        let text = "{\n  \"version\": 1,\n  \"stations\": [\n    {'id': 'x'}\n  ]\n}"
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:4: stations[0]: expected a field name in double quotes, got a single quote")
    }

    func testABareWordIsCalledOut() {
        let text = catalogueText([stationText(country: "GB")])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "\"country\"", in: text)): stations[0].country: expected a value, got 'GB' (strings need double quotes)")
    }

    func testAnInvalidEscapeNamesTheEscape() {
        let text = catalogueText([stationText(name: #"C:\music"#)])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "music", in: text)): stations[0].name: invalid escape '\\m' in a string (use \\\\ for a backslash)")
    }

    func testTextAfterTheDocumentIsReported() {
        let text = catalogueText([stationText()]) + "\n{}"
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(text.components(separatedBy: "\n").count): unexpected '{' after the end of the document")
    }

    func testAnEmptyFileIsReported() {
        XCTAssertEqual(catalogueError("")?.description, "/cfg/stations.json:1: expected a value, got the end of the file")
    }

    func testATruncatedFileIsReportedOnItsLastLine() {
        let text = catalogueText([stationText()])
        let truncated = String(text.prefix(upTo: text.range(of: "\"streams\"")!.lowerBound))
        XCTAssertEqual(catalogueError(truncated)?.description,
                       "/cfg/stations.json:\(truncated.components(separatedBy: "\n").count): stations[0]: expected a field name in double quotes, got the end of the file")
    }

    func testTrailingCommasAreAcceptedAsTheDecoderAcceptsThem() throws {
        let text = "{\"version\": 1, \"stations\": [\n" + stationText() + ",\n]}"
        XCTAssertEqual(try Catalogue.stations(decoding: Data(text.utf8), path: "x").map(\.id), ["test-fm"])
    }
}

final class CatalogueDecodingErrorTests: XCTestCase {
    func testAnUnknownStreamKindNamesFieldLineAndChoices() {
        let text = catalogueText([
            stationText(id: "one"), stationText(id: "two"),
            stationText(id: "three", streams: [#"{"url": "https://example.org/a", "kind": "icy"}"#,
                                               #"{"url": "https://example.org/b", "kind": "rtsp"}"#]),
        ])
        XCTAssertEqual(catalogueError(text, path: "/home/u/.config/onair/stations.json")?.description,
                       "/home/u/.config/onair/stations.json:\(lineNumber(of: "rtsp", in: text)): stations[2].streams[1].kind: expected one of \"icy\", \"hls\", \"dash\", got \"rtsp\"")
    }

    func testAWrongTypeSaysWhatWasExpectedAndWhatWasFound() {
        let text = catalogueText([stationText(extra: [#""tags": ["jazz", 42]"#])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "42", in: text)): stations[0].tags[1]: expected a string, got the number 42")
    }

    func testAnObjectWhereAnArrayBelongs() {
        let text = catalogueText([stationText(extra: [#""tags": {"genre": "jazz"}"#])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "genre", in: text)): stations[0].tags: expected an array, got an object")
    }

    func testAScalarWhereAStationBelongs() {
        let text = catalogueText([stationText(), "    \"bbc-radio-3\""])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "\"bbc-radio-3\"", in: text)): stations[1]: expected an object, got the string \"bbc-radio-3\"")
    }

    func testNullForARequiredField() {
        let text = catalogueText([stationText(timeZone: "null")])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "timeZone", in: text)): stations[0].timeZone: expected a string, got null")
    }

    func testAMissingFieldPointsAtTheObjectThatLacksIt() {
        let text = catalogueText([stationText(streams: ["{\n          \"url\": \"https://example.org/a\",\n          \"codec\": \"mp3\"}"])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "\"streams\"", in: text) + 1): stations[0].streams[0]: missing required field \"kind\"")
    }

    func testAFractionalBitrateIsNamed() {
        let text = catalogueText([stationText(streams: [#"{"url": "https://example.org/a", "kind": "icy", "bitrate": 128.5}"#])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "128.5", in: text)): stations[0].streams[0].bitrate: expected a whole number, got 128.5")
    }

    func testABadDurationAndABadDayUseTheModelsOwnWords() {
        let duration = catalogueText([stationText(programmes: [#"{"id": "p", "name": "P", "slots": [{"days": ["sat"], "start": "16:00", "duration": "2 hours"}]}"#])])
        XCTAssertEqual(catalogueError(duration)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "2 hours", in: duration)): stations[0].programmes[0].slots[0].duration: expected a duration like \"2h\", \"45m\" or \"1h30m\", got \"2 hours\"")

        let day = catalogueText([stationText(programmes: [#"{"id": "p", "name": "P", "slots": [{"days": ["sat", "sunday"], "start": "16:00", "duration": "2h"}]}"#])])
        XCTAssertEqual(catalogueError(day)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "sunday", in: day)): stations[0].programmes[0].slots[0].days[1]: expected one of \"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\", got \"sunday\"")

        let time = catalogueText([stationText(programmes: [#"{"id": "p", "name": "P", "slots": [{"days": ["sat"], "start": "25:00", "duration": "2h"}]}"#])])
        XCTAssertEqual(catalogueError(time)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "25:00", in: time)): stations[0].programmes[0].slots[0].start: expected a time of day \"HH:MM\", got \"25:00\"")
    }

    func testAMissingVersionPointsAtTheDocument() {
        XCTAssertEqual(catalogueError("{\n  \"stations\": []\n}")?.description,
                       "/cfg/stations.json:1: missing required field \"version\"")
    }
}

final class CatalogueValidationErrorTests: XCTestCase {
    func testLanguageIsTwoLettersOrUndetermined() {
        let undetermined = catalogueText([stationText(language: "und")])
        XCTAssertEqual(try Catalogue.stations(decoding: Data(undetermined.utf8), path: "/cfg/stations.json").first?.language,
                       "und", "a directory entry without a language")
        let text = catalogueText([stationText(language: "eng")])
        XCTAssertEqual(catalogueError(text)?.field, "stations[0].language")
    }

    func testAnUnknownTimeZone() {
        let text = catalogueText([stationText(timeZone: "\"Europe/Lodnon\"")])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "Lodnon", in: text)): stations[0].timeZone: unknown time zone \"Europe/Lodnon\" (expected an IANA name like \"Europe/London\")")
    }

    func testALocalFileURLIsRefused() {
        let text = catalogueText([stationText(streams: [#"{"url": "https://example.org/a", "kind": "icy"}"#,
                                                        #"{"url": "file:///etc/passwd", "kind": "icy"}"#])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "passwd", in: text)): stations[0].streams[1].url: expected an http:// or https:// URL, got \"file:///etc/passwd\"")
    }

    func testALogoThatIsNotAWebURLIsRefused() {
        let text = catalogueText([stationText(extra: [#""logo": "file:///home/me/logo.png""#])])
        XCTAssertEqual(catalogueError(text)?.field, "stations[0].logo")
    }

    func testAURLWithoutHostIsRefused() {
        let text = catalogueText([stationText(streams: [#"{"url": "http:/relative", "kind": "icy"}"#])])
        XCTAssertEqual(catalogueError(text)?.field, "stations[0].streams[0].url")
    }

    func testADuplicateIDIsReportedAtTheSecondStation() {
        let text = catalogueText([stationText(id: "fip", name: "FIP"), stationText(id: "kexp", name: "KEXP"),
                                  stationText(id: "fip", name: "FIP again")])
        let error = catalogueError(text)
        XCTAssertEqual(error?.description,
                       "/cfg/stations.json:\(lineNumber(of: "FIP again", in: text) - 1): stations[2].id: duplicate station id \"fip\" (already used by stations[0])")
    }

    func testAnUnknownCharset() {
        let text = catalogueText([stationText(extra: [#""charset": "windows-1215""#])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "1215", in: text)): stations[0].charset: unknown charset \"windows-1215\" (expected a name iconv knows, like \"windows-1251\")")
    }

    func testCharsetsIconvKnowsAreAccepted() throws {
        for charset in ["windows-1251", "KOI8-R", "ISO-8859-2", "latin1", "UTF-8"] {
            let text = catalogueText([stationText(extra: ["\"charset\": \"\(charset)\""])])
            XCTAssertNoThrow(try Catalogue.stations(decoding: Data(text.utf8), path: "x"), charset)
        }
    }

    func testIdsUseTheNarrowAlphabet() {
        let text = catalogueText([stationText(id: "BBC Radio 3")])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "BBC Radio 3", in: text)): stations[0].id: station id \"BBC Radio 3\" may only contain a-z, 0-9, '-', '_' and '.'")
        XCTAssertEqual(catalogueError(catalogueText([stationText(id: "")]))?.message, "a station needs a non-empty id")
    }

    func testAStationNeedsAStream() {
        let text = catalogueText([stationText(streams: [])])
        XCTAssertEqual(catalogueError(text)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "streams", in: text)): stations[0].streams: a station needs at least one stream")
    }

    func testCountryAndLanguageCodes() {
        XCTAssertEqual(catalogueError(catalogueText([stationText(country: "\"UK \"")]))?.message,
                       "expected a two-letter ISO 3166 country code like \"GB\", got \"UK \"")
        XCTAssertEqual(catalogueError(catalogueText([stationText(country: "\"gb\"")]))?.field, "stations[0].country")
    }

    func testProgrammeRules() {
        let duplicate = catalogueText([stationText(programmes: [
            #"{"id": "today", "name": "Today", "slots": []}"#,
            #"{"id": "today", "name": "Today again", "slots": []}"#,
        ])])
        XCTAssertEqual(catalogueError(duplicate)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "Today again", in: duplicate)): stations[0].programmes[1].id: duplicate programme id \"today\" (already used by programmes[0] of this station)")

        let noDays = catalogueText([stationText(programmes: [#"{"id": "p", "name": "P", "slots": [{"days": [], "start": "16:00", "duration": "1h"}]}"#])])
        XCTAssertEqual(catalogueError(noDays)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "days", in: noDays)): stations[0].programmes[0].slots[0].days: a slot needs at least one day")

        let zero = catalogueText([stationText(programmes: [#"{"id": "p", "name": "P", "slots": [{"days": ["mon"], "start": "16:00", "duration": "0m"}]}"#])])
        XCTAssertEqual(catalogueError(zero)?.description,
                       "/cfg/stations.json:\(lineNumber(of: "0m", in: zero)): stations[0].programmes[0].slots[0].duration: a slot's duration must be above zero")
    }

    func testAnotherVersionIsRefused() {
        XCTAssertEqual(catalogueError(catalogueText([stationText()], version: 2))?.description,
                       "/cfg/stations.json:2: version: unsupported version 2 (this onair reads version 1)")
    }
}
