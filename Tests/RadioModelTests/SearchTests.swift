import Foundation
import XCTest
@testable import RadioModel

final class SearchTests: XCTestCase {
    private let catalogue = Catalogue(stations: [
        station("fip-jazz", "FIP Jazz", country: "FR", language: "fr", tags: ["jazz"]),
        station("fip", "FIP", country: "FR", language: "fr", tags: ["eclectic", "jazz"]),
        station("radio-swiss-jazz", "Radio Swiss Jazz", country: "CH", language: "de", tags: ["jazz", "blues"]),
        station("jazz-fm", "Jazz FM", country: "GB", tags: ["smooth"]),
        station("bbc-radio-3", "BBC Radio 3", country: "GB", tags: ["classical", "jazz"]),
        station("rne-radio-clasica", "RNE Radio Clásica", country: "ES", language: "es", tags: ["classical"]),
        station("kexp", "KEXP", country: "US", tags: ["indie", "alternative"]),
        station("also-fip-fans", "Alsofip Fans Radio", country: "US", tags: []),
    ])

    private func ids(_ query: String) -> [String] { catalogue.search(query).map(\.id) }

    func testExactMatchComesFirstThenNamePrefixThenTheRest() {
        XCTAssertEqual(ids("fip"), ["fip", "fip-jazz", "also-fip-fans"])
        XCTAssertEqual(ids("FIP jazz"), ["fip-jazz", "fip"])
    }

    func testTagsAndNamesMatchWithNamePrefixFirstThenByName() {
        XCTAssertEqual(ids("jazz"), ["jazz-fm", "bbc-radio-3", "fip", "fip-jazz", "radio-swiss-jazz"])
    }

    func testCountryAndLanguageCodesMatchWholly() {
        XCTAssertEqual(ids("gb"), ["bbc-radio-3", "jazz-fm"])
        XCTAssertEqual(ids("GB jazz"), ["bbc-radio-3", "jazz-fm"])
        XCTAssertEqual(ids("de"), ["radio-swiss-jazz"])
        XCTAssertEqual(ids("g"), [], "a code is not matched by a part of it")
    }

    func testAccentsAndCaseAreIgnoredBothWays() {
        XCTAssertEqual(ids("clasica"), ["rne-radio-clasica"])
        XCTAssertEqual(ids("CLÁSICA"), ["rne-radio-clasica"])
        XCTAssertEqual(Catalogue(stations: [station("x", "Radio Clasica")]).search("clásica").map(\.id), ["x"])
    }

    func testEveryWordMustMatch() {
        XCTAssertEqual(ids("radio classical"), ["bbc-radio-3", "rne-radio-clasica"])
        XCTAssertEqual(ids("jazz indie"), [])
    }

    func testAnEmptyQueryListsEverything() {
        XCTAssertEqual(catalogue.search("  ").count, catalogue.stations.count)
    }

    func testTheShippedCatalogueAnswersCommonQueries() throws {
        let shipped = Catalogue(stations: try Catalogue.stations(inFileAt: shippedCatalogueURL))
        XCTAssertEqual(shipped.search("fip").first?.id, "fip")
        XCTAssertTrue(shipped.search("gb").allSatisfy { $0.country == "GB" })
        XCTAssertTrue(shipped.search("gb").contains { $0.id == "bbc-radio-4" })
        XCTAssertTrue(shipped.search("jazz").contains { $0.id == "radio-swiss-jazz" })
        XCTAssertEqual(shipped.search("clasica").map(\.id), ["rne-radio-clasica"])
    }
}
