import Foundation
import HTTPService

/// The Host and Origin checks of every request (`SitePolicy`): the input is a Host header, an Origin and
/// a Sec-Fetch-Site, one per line. Asserts that a host answered to is localhost, an IP address or the
/// configured name, and that a request whose Origin names another host than its Host (and than the
/// public URL) is never taken for this site's own.
func fuzzSitePolicy(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let host = lines.first, origin = lines.count > 1 ? lines[1] : nil, fetchSite = lines.count > 2 ? lines[2] : nil
    let policy = SitePolicy(allowHosts: ["radio.lan"], publicURL: URL(string: "https://radio.example"))

    if let host, policy.answers(host: host) {
        let name = SitePolicy.hostName(ofHostHeader: host)
        precondition(name == "localhost" || name == "radio.lan" || name == "radio.example" || isAddress(name ?? ""),
                     "answered to '\(host)'")
    }
    if let origin, let host, policy.crossSiteReason(origin: origin, fetchSite: fetchSite, host: host) == nil {
        // Taken as this site's own: the Origin's host is the Host's, or the public URL's. A name and the same name
        // with a trailing dot (its absolute form) are one host, as SitePolicy reads them.
        var theirs = URLComponents(string: origin.trimmingCharacters(in: .whitespaces))?.host?.lowercased()
            .trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        while theirs?.hasSuffix(".") == true { theirs?.removeLast() }
        let ours = SitePolicy.hostName(ofHostHeader: host)
        precondition(theirs != nil && (theirs == ours || theirs == "radio.example"), "'\(origin)' taken for the site of '\(host)'")
        precondition(fetchSite.map { ["same-origin", "none"].contains($0.lowercased()) } ?? true, "Sec-Fetch-Site '\(fetchSite!)' let through")
    }
    return 0
}

private func isAddress(_ name: String) -> Bool {
    var v4 = in_addr(), v6 = in6_addr()
    return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
}
