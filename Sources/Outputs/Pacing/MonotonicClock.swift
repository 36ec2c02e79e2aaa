#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: never steps with NTP or a changed system time, so a schedule
/// computed from it cannot jump.
package enum MonotonicClock {
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Sleeps until an absolute instant of this clock (returns at once if it has passed), so that the
    /// time spent working between sleeps does not add up as drift.
    package static func sleep(until instant: Int64) {
        var deadline = timespec(tv_sec: Int(instant / 1_000_000_000), tv_nsec: Int(instant % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    /// Frames of `sampleRate` that fit in `nanoseconds`, rounded down; exact for any duration (the
    /// product of nanoseconds and rate would overflow 64 bits after a few hours, so whole seconds
    /// and the remainder are converted apart).
    package static func frames(in nanoseconds: Int64, sampleRate: Int) -> Int64 {
        let rate = Int64(sampleRate)
        return nanoseconds / 1_000_000_000 * rate + nanoseconds % 1_000_000_000 * rate / 1_000_000_000
    }

    /// The instant, relative to an origin, at which `frames` of `sampleRate` are due.
    package static func nanoseconds(for frames: Int64, sampleRate: Int) -> Int64 {
        let rate = Int64(sampleRate)
        return frames / rate * 1_000_000_000 + (frames % rate * 1_000_000_000 + rate - 1) / rate
    }
}
