// How broadcast times read on screen: "Mon–Fri 06:00–09:00 (3h)".

extension Weekday {
    /// "Mon", "Tue", …
    public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

extension BroadcastSlot: CustomStringConvertible {
    /// Days, local start and end time, and length: "Sat 16:00–17:00 (1h)".
    public var description: String {
        "\(BroadcastSlot.describeDays(days)) \(start)–\(end) (\(duration))"
    }

    /// When the slot ends, on the clock (past midnight it wraps: 23:00 for 2h ends 01:00).
    public var end: ClockTime {
        let minutes = (start.hour * 60 + start.minute + Int(duration.seconds) / 60) % (24 * 60)
        return ClockTime(hour: minutes / 60, minute: minutes % 60)
    }

    /// "Daily", "Mon–Fri", "Sat, Sun", "Mon–Fri, Sun": runs of three or more days as ranges.
    static func describeDays(_ days: [Weekday]) -> String {
        let chosen = Set(days)
        if chosen.count == Weekday.allCases.count { return "Daily" }
        var runs: [[Weekday]] = []
        var previousIndex: Int?
        for (index, day) in Weekday.allCases.enumerated() where chosen.contains(day) {
            if let previousIndex, previousIndex + 1 == index { runs[runs.count - 1].append(day) } else { runs.append([day]) }
            previousIndex = index
        }
        return runs.flatMap { run in
            run.count >= 3 ? ["\(run[0].shortName)–\(run[run.count - 1].shortName)"] : run.map(\.shortName)
        }.joined(separator: ", ")
    }
}
