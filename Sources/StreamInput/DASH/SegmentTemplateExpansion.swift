import Foundation

/// One media segment of a representation, placed on the presentation timeline.
struct DASHSegment: Sendable, Equatable {
    /// `$Number$`.
    var number: Int
    /// `$Time$`, in the template's timescale.
    var time: Int64
    /// Seconds from the presentation's start (availabilityStartTime for a dynamic MPD).
    var start: Double
    var duration: Double
    var url: String
    /// SegmentList@mediaRange, or a sidx reference: only these bytes of `url`.
    var byteRange: ByteRange? = nil
}

/// Turns a SegmentTemplate into the segments it stands for (§5.3.9.4–5.3.9.6): numbered by `@duration`
/// or listed by a SegmentTimeline (with `r="-1"` running to the next entry, the period's end or the
/// live edge). Only the segments inside a window are produced, computed rather than counted out, so a
/// template spanning years costs no more than one spanning a minute. A SegmentList (or a sidx read
/// into one) is timed the same way and takes segment k's URL and byte range from its list; a list of
/// one segment with no duration is the whole period.
struct SegmentTemplateExpansion {
    var template: MPD.SegmentTemplate
    var representation: MPD.Representation
    /// Seconds from the presentation's start.
    var periodStart: Double
    var periodEnd: Double?

    /// The segments whose end lies in `(earliestEnd, latestEnd]`, the last `limit` of them.
    func segments(earliestEnd: Double, latestEnd: Double, limit: Int) throws -> [DASHSegment] {
        let upper = min(latestEnd, periodEnd ?? .infinity)
        guard upper > earliestEnd, limit > 0 else { return [] }
        if let timeline = template.timeline {
            return try timelineSegments(timeline, earliestEnd: earliestEnd, latestEnd: latestEnd, limit: limit)
        }
        guard let duration = template.duration else { return try wholePeriod(earliestEnd: earliestEnd, latestEnd: latestEnd) }
        let seconds = Double(duration) / Double(template.timescale)
        // Segment k spans [k, k+1) durations from the period's start; the last one may be cut by the period's end.
        var last = Self.index((latestEnd - periodStart) / seconds) - 1
        if let periodEnd { last = min(last, Self.index(((periodEnd - periodStart) / seconds).rounded(.up)) - 1) }
        if let listed = template.listed { last = min(last, listed.count - 1) }
        let first = max(0, Self.index(((earliestEnd - periodStart) / seconds).rounded(.down)), last - limit + 1)
        guard first <= last else { return [] }
        return try (first...last).compactMap { k in
            try segment(index: k, time: template.presentationTimeOffset &+ Int64(k) &* duration, duration: duration)
        }
    }

    /// Where the last segment the template describes ends, in presentation seconds; nil when it runs
    /// on with the clock (no period end, and `@duration` or a timeline entry with `r="-1"`).
    func lastSegmentEnd() throws -> Double? {
        if let periodEnd { return periodEnd }
        guard template.listed != nil || template.timeline?.allSatisfy({ $0.repeatCount >= 0 }) == true,
              let last = try segments(earliestEnd: -.infinity, latestEnd: .infinity, limit: 1).last else { return nil }
        return last.start + last.duration
    }

    /// The one listed segment of a SegmentList without a duration, or of a representation addressed by
    /// its BaseURL alone: it plays the whole period, so the period must have an end.
    private func wholePeriod(earliestEnd: Double, latestEnd: Double) throws -> [DASHSegment] {
        guard let listed = template.listed, listed.count == 1, let periodEnd, periodEnd > periodStart,
              periodEnd > earliestEnd, periodEnd <= latestEnd else { return [] }
        let scale = Double(template.timescale)
        let length = Int64(min((periodEnd - periodStart) * scale, 0x1p62))
        return try segment(index: 0, time: template.presentationTimeOffset, duration: max(length, 1)).map { [$0] } ?? []
    }

    private func timelineSegments(_ timeline: [MPD.TimelineEntry], earliestEnd: Double, latestEnd: Double,
                                  limit: Int) throws -> [DASHSegment] {
        let scale = Double(template.timescale)
        /// Media time (in timescale units) of a presentation time.
        func mediaTime(_ seconds: Double) -> Double { (seconds - periodStart) * scale + Double(template.presentationTimeOffset) }
        var result: [DASHSegment] = []
        var time = timeline.first?.time ?? template.presentationTimeOffset
        var index = 0
        for (position, entry) in timeline.enumerated() {
            time = entry.time ?? time
            let d = Double(entry.duration)
            // How many segments the entry stands for; an open-ended one runs to whatever comes first.
            var count: Double
            if entry.repeatCount >= 0 {
                count = Double(entry.repeatCount) + 1
            } else {
                let next = timeline.dropFirst(position + 1).first?.time.map(Double.init)
                    ?? periodEnd.map(mediaTime) ?? mediaTime(latestEnd)
                count = max(0, ((next - Double(time)) / d).rounded(.up))
            }
            count = min(count, Double(Int.max / 4))
            // Within the window: end > earliestEnd and end <= latestEnd.
            let first = max(0, ((mediaTime(earliestEnd) - Double(time)) / d).rounded(.down))
            let last = min(count - 1, ((mediaTime(latestEnd) - Double(time)) / d).rounded(.down) - 1)
            if first <= last {
                let from = max(first, last - Double(limit) + 1)
                for j in Self.index(from)...Self.index(last) {
                    guard let segment = try segment(index: index &+ j, time: time &+ Int64(j) &* entry.duration,
                                                    duration: entry.duration) else { break }
                    result.append(segment)
                }
                if result.count > limit { result.removeFirst(result.count - limit) }
            }
            index = index &+ Self.index(count)
            time = time &+ Int64(Self.index(count)) &* entry.duration
            if Double(time) > mediaTime(latestEnd) { break }
        }
        return result
    }

    /// Segment `index` of the representation; nil past the end of a SegmentList.
    private func segment(index: Int, time: Int64, duration: Int64) throws -> DASHSegment? {
        let scale = Double(template.timescale)
        let start = periodStart + Double(time &- template.presentationTimeOffset) / scale
        var length = Double(duration) / scale
        if let periodEnd { length = max(0, min(length, periodEnd - start)) }
        let number = template.startNumber &+ index
        if let listed = template.listed {
            guard index >= 0, index < listed.count else { return nil }
            return DASHSegment(number: number, time: time, start: start, duration: length, url: listed[index].url,
                               byteRange: listed[index].byteRange)
        }
        guard let media = template.media else {
            throw PlaylistError(url: representation.baseURL, line: nil, message: "SegmentTemplate without @media")
        }
        return DASHSegment(number: number, time: time, start: start, duration: length,
                           url: try url(media, number: number, time: time))
    }

    /// The initialisation segment's URL, if the template names one (a SegmentList's is absolute already).
    func initializationURL() throws -> String? {
        if template.listed != nil { return template.initialization }
        return try template.initialization.map { try url($0, number: template.startNumber, time: 0) }
    }

    /// A template with its identifiers substituted (§5.3.9.4.4), resolved against the BaseURL in effect.
    func url(_ pattern: String, number: Int, time: Int64) throws -> String {
        let expanded = Self.substitute(pattern, representationID: representation.id, bandwidth: representation.bandwidth,
                                       number: number, time: time)
        do {
            return try PlaylistParser.absolute(expanded, line: 0, base: URL(string: representation.baseURL)!, url: representation.baseURL)
        } catch {
            throw PlaylistError(url: representation.baseURL, line: nil,
                           message: "segment URL '\(expanded.prefix(80))' is not an http(s) URL")
        }
    }

    /// `$RepresentationID$`, `$Bandwidth$`, `$Number$`, `$Time$` (each with an optional `%0Nd` width) and `$$`.
    static func substitute(_ pattern: String, representationID: String, bandwidth: Int, number: Int, time: Int64) -> String {
        var output = ""
        var rest = Substring(pattern)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                output += rest[dollar...]
                return output
            }
            let identifier = rest[afterDollar..<close]
            let parts = identifier.split(separator: "%", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            let width = parts.count > 1 ? formatWidth(parts[1]) : 0
            switch name {
            case "": output += "$"
            case "RepresentationID": output += representationID
            case "Bandwidth": output += padded(String(bandwidth), width)
            case "Number": output += padded(String(number), width)
            case "Time": output += padded(String(time), width)
            default: output += rest[dollar...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// The width of a `%0Nd` format tag; anything else is no padding.
    private static func formatWidth(_ format: Substring) -> Int {
        guard format.hasSuffix("d") else { return 0 }
        return min(64, Int(format.dropLast().drop { $0 == "0" }) ?? 0)
    }

    private static func padded(_ digits: String, _ width: Int) -> String {
        digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A computed index, clamped into `Int` (the inputs come from a remote document).
    static func index(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? Int.max / 4 : Int.min / 4 }
        return Int(max(Double(Int.min / 4), min(Double(Int.max / 4), value)))
    }
}
