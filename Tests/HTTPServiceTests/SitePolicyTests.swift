import Foundation
import HTTPService
import XCTest

/// The Host and Origin checks on their own: what the attacker tests (WebAppTests) meet through a server.
final class SitePolicyTests: XCTestCase {
    private let policy = SitePolicy(allowHosts: ["radio.lan"])

    /// A name and the same name with a trailing dot (its absolute form) are one host: an Origin in either form is
    /// this site's own. Found by the site-policy fuzz target, whose oracle had read them as two hosts.
    func testANameWithATrailingDotIsTheSameSiteAndALongerNameIsNot() {
        XCTAssertNil(policy.crossSiteReason(origin: "http://radio.lan.", fetchSite: nil, host: "radio.lan"))
        XCTAssertNil(policy.crossSiteReason(origin: "http://radio.lan", fetchSite: nil, host: "radio.lan."))
        XCTAssertNil(policy.crossSiteReason(origin: "https://ra.", fetchSite: nil, host: "ra"), "the fuzzer's input")
        for other in ["http://radio.lan.evil", "http://.radio.lan", "http://evil.radio.lan", "http://radio.lan.:8080"] {
            XCTAssertNotNil(policy.crossSiteReason(origin: other, fetchSite: nil, host: "radio.lan"), other)
        }
    }
}
