import Glibc

/// Each station holds a socket and a file with its journal open, so a few hundred stations pass the
/// soft limit on open files most systems start processes with (1,024). The hard limit is the one the
/// administrator set; a command that may run many stations raises the soft limit to it.
enum OpenFileLimit {
    static func raiseToHardLimit() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)  // unchanged on failure: the stations past it report their own errors
    }
}
