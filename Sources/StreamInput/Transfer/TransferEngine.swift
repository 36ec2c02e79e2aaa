import CCurl
import Foundation
import RadioModel

/// Identifies one transfer of the engine.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    let raw: UInt64
    public var description: String { "transfer-\(raw)" }
}

/// Receives a transfer's progress. Every method is called on the engine's network thread and must not block.
public protocol TransferDelegate: AnyObject, Sendable {
    /// The final response's status and headers. Return false to abort the transfer.
    func transfer(_ id: TransferID, didReceive head: ResponseHead) -> Bool
    /// Body bytes. Return false if they were not taken: the transfer pauses, and the same bytes come
    /// again after `TransferEngine.resume(_:)`.
    func transfer(_ id: TransferID, didReceive bytes: UnsafeRawBufferPointer) -> Bool
    /// The end: nil when the server ended the response normally.
    func transfer(_ id: TransferID, didFinishWith error: TransferError?)
}

/// One libcurl multi handle driven by one network thread, serving every transfer in the process.
///
/// Commands from other threads are queued and the thread is woken (an eventfd), so every curl handle
/// is touched by the network thread only.
///
/// The thread waits in epoll on the sockets curl names through its socket callback, and hands curl
/// only the sockets that are ready (`curl_multi_socket_action`). With `curl_multi_poll` and
/// `curl_multi_perform`, every wake-up polled and walked every transfer: at 1,000 recorded stations
/// the network thread was half of the process's CPU, most of it in poll(2) over a thousand sockets.
public final class TransferEngine: @unchecked Sendable {  // `commands`, `nextID`, `thread`, `wakePending` in `state`; the rest on the network thread only
    public static let shared = TransferEngine()

    /// The only state other threads touch.
    private struct State {
        var commands: [() -> Void] = []
        var nextID: UInt64 = 0
        var thread: Thread?
        /// The eventfd has been signalled and the commands have not been taken since.
        var wakePending = false
    }
    private let state = Locked(State())

    // Network thread only (curl calls its callbacks there too).
    private let multi: UnsafeMutableRawPointer
    private let poller: Int32
    private let wakeEvent: Int32
    /// When curl wants `curl_multi_socket_action` called for its own timeouts.
    private var curlDeadline = Double.infinity
    private var transfers: [TransferID: Transfer] = [:]
    private var timers: [(deadline: Double, action: () -> Void)] = []
    /// When the next transfer could stall at the earliest. Data only moves a transfer's deadline
    /// later, so between scans this is a lower bound, and a quiet loop sleeps until then.
    private var nextStallScan = Double.infinity

    public init() {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        multi = curl_multi_init()
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeEvent = eventfd(0, Int32(EFD_CLOEXEC))
        precondition(poller >= 0 && wakeEvent >= 0, "cannot set up the network thread's poller: \(String(cString: strerror(errno)))")
        watch(wakeEvent, curlWants: CURL_POLL_IN)
        let me = Unmanaged.passUnretained(self).toOpaque()
        onair_curl_multi_setopt_socket_function(multi, { _, socket, what, engine, _ in
            Unmanaged<TransferEngine>.fromOpaque(engine!).takeUnretainedValue().watch(socket, curlWants: what)
            return 0
        }, me)
        onair_curl_multi_setopt_timer_function(multi, { _, milliseconds, engine in
            let engine = Unmanaged<TransferEngine>.fromOpaque(engine!).takeUnretainedValue()
            engine.curlDeadline = milliseconds < 0 ? .infinity : TransferEngine.now() + Double(milliseconds) / 1000
            return 0
        }, me)
    }

    // MARK: Public API (any thread)

    /// Starts a transfer; the delegate hears of it on the network thread.
    @discardableResult
    public func start(_ request: TransferRequest, delegate: TransferDelegate) -> TransferID {
        let id = state.withLock { state in state.nextID += 1; return TransferID(raw: state.nextID) }
        submit { [unowned self] in self.add(id: id, request: request, delegate: delegate) }
        return id
    }

    /// Ends a transfer without calling its delegate again.
    public func cancel(_ id: TransferID) {
        submit { [unowned self] in
            guard let transfer = self.transfers[id] else { return }
            self.remove(transfer)
        }
    }

    /// Lets a paused transfer deliver again.
    public func resume(_ id: TransferID) {
        submit { [unowned self] in
            guard let transfer = self.transfers[id], transfer.paused else { return }
            transfer.paused = false
            transfer.lastActivity = Self.now()
            self.watchForStall(transfer)
            curl_easy_pause(transfer.easy, CURLPAUSE_CONT)
        }
    }

    /// Runs `action` on the network thread after `delay` seconds.
    public func schedule(after delay: Double, _ action: @escaping @Sendable () -> Void) {
        submit { [unowned self] in self.timers.append((Self.now() + delay, action)) }
    }

    /// Fetches a resource whole without blocking: `completion` runs on the network thread once the
    /// body is in or the transfer failed. What the HLS follower uses for playlists, keys and segments.
    ///
    /// `stopAfterHead` may end the transfer once the headers are in (an audio stream has no end).
    @discardableResult
    public func load(_ request: TransferRequest, maxBytes: Int,
                     stopAfterHead: @escaping @Sendable (ResponseHead) -> Bool = { _ in false },
                     completion: @escaping @Sendable (Result<HTTPResponse, TransferError>) -> Void) -> TransferID {
        start(request, delegate: BodyCollector(url: request.url, maxBytes: maxBytes, keepsErrorBody: request.keepsErrorBody,
                                               stopAfterHead: stopAfterHead,
                                               completion: completion))
    }

    /// Fetches a resource whole (playlists, directory answers). Blocks the calling thread, so it
    /// must never be called on the network thread or from Swift's cooperative pool.
    public func fetch(_ request: TransferRequest, maxBytes: Int,
                      stopAfterHead: @escaping @Sendable (ResponseHead) -> Bool = { _ in false }) throws -> HTTPResponse {
        precondition(Thread.current !== state.withLock({ $0.thread }), "fetch would deadlock the network thread")
        let outcome = FetchOutcome()
        load(request, maxBytes: maxBytes, stopAfterHead: stopAfterHead) { outcome.set($0) }
        return try outcome.wait().get()
    }

    // MARK: Network thread

    private func submit(_ command: @escaping () -> Void) {
        state.withLock { state in
            state.commands.append(command)
            if state.thread == nil {
                let thread = Thread { [unowned self] in self.runLoop() }
                thread.name = "onair-network"
                state.thread = thread
                thread.start()
            }
            guard !state.wakePending else { return }
            state.wakePending = true
            var one: UInt64 = 1
            _ = write(wakeEvent, &one, 8)
        }
    }

    private func runLoop() {
        var running: Int32 = 0
        var ready = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            for command in state.withLock({ (state) -> [() -> Void] in defer { state.commands = []; state.wakePending = false }; return state.commands }) {
                command()
            }
            fireDueTimers()
            if Self.now() >= curlDeadline {
                curlDeadline = .infinity
                curl_multi_socket_action(multi, onair_curl_socket_timeout(), 0, &running)
            }
            collectFinished()
            failStalled()
            let count = epoll_wait(poller, &ready, Int32(ready.count), nextPollTimeout())
            for event in ready.prefix(Int(max(0, count))) {
                let socket = event.data.fd
                if socket == wakeEvent {
                    var signalled: UInt64 = 0
                    _ = read(wakeEvent, &signalled, 8)
                    continue
                }
                var mask: Int32 = 0
                // A hang-up or an error is read, as curl's own poll does, to learn the end or the reason:
                // told of the error alone, curl fails with "select/poll returned error".
                if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { mask |= CURL_CSELECT_IN }
                if event.events & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
                curl_multi_socket_action(multi, socket, mask, &running)
            }
            collectFinished()
        }
    }

    /// curl's socket callback: what to wait for on one of its sockets, or `CURL_POLL_REMOVE`.
    private func watch(_ socket: Int32, curlWants what: Int32) {
        guard what != CURL_POLL_REMOVE else {
            // curl may have closed it already, which took it out of the set.
            _ = epoll_ctl(poller, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var event = epoll_event()
        if what & CURL_POLL_IN != 0 { event.events |= EPOLLIN.rawValue }
        if what & CURL_POLL_OUT != 0 { event.events |= EPOLLOUT.rawValue }
        event.data.fd = socket
        if epoll_ctl(poller, EPOLL_CTL_MOD, socket, &event) != 0, errno == ENOENT {
            _ = epoll_ctl(poller, EPOLL_CTL_ADD, socket, &event)
        }
    }

    private func add(id: TransferID, request: TransferRequest, delegate: TransferDelegate) {
        let transfer = Transfer(id: id, request: request, delegate: delegate, engine: self)
        do {
            try transfer.configure()
        } catch {
            transfer.cleanup()
            delegate.transfer(id, didFinishWith: error as? TransferError
                ?? TransferError(kind: .other, url: request.url, message: "\(error)"))
            return
        }
        transfers[id] = transfer
        watchForStall(transfer)
        curl_multi_add_handle(multi, transfer.easy)
    }

    private func remove(_ transfer: Transfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        transfers[transfer.id] = nil
        transfer.cleanup()
    }

    private func finish(_ transfer: Transfer, error: TransferError?) {
        remove(transfer)
        transfer.deliverHeadIfPending()
        transfer.delegate.transfer(transfer.id, didFinishWith: error)
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            let easy = message.pointee.easy_handle
            let code = message.pointee.data.result
            guard let transfer = transfers.values.first(where: { $0.easy == easy }) else { continue }
            finish(transfer, error: transfer.error(for: code))
        }
    }

    private func watchForStall(_ transfer: Transfer) {
        nextStallScan = min(nextStallScan, transfer.lastActivity + transfer.request.stallTimeout)
    }

    /// Fails the transfers that have been silent too long. Scanning every transfer at every wakeup
    /// would be most of the loop's work with hundreds of stations, so the scan runs only when the
    /// earliest possible stall is due.
    private func failStalled() {
        let now = Self.now()
        guard now >= nextStallScan else { return }
        nextStallScan = .infinity
        for transfer in transfers.values where !transfer.paused {
            let deadline = transfer.lastActivity + transfer.request.stallTimeout
            if now >= deadline {
                let seconds = Int(transfer.request.stallTimeout.rounded())
                finish(transfer, error: TransferError(kind: .stalled, url: transfer.request.url,
                                                      message: "no data for \(seconds) s"))
            } else {
                nextStallScan = min(nextStallScan, deadline)
            }
        }
    }

    private func fireDueTimers() {
        let now = Self.now()
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due { timer.action() }
    }

    /// Sleeps until the next timer, possible stall or curl timeout; a command from another thread
    /// wakes the poll at once. A quiet engine does not wake.
    private func nextPollTimeout() -> Int32 {
        let deadline = min(timers.map(\.deadline).min() ?? .infinity, nextStallScan, curlDeadline)
        let ms = ((deadline - Self.now()) * 1000).rounded(.up)
        return Int32(max(0, min(ms, Double(Int32.max))))
    }

    /// Called by a transfer's write callback when its delegate refused bytes.
    fileprivate func didPause(_ transfer: Transfer) { transfer.paused = true }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// One curl easy handle and what it needs to live: owned by the network thread.
private final class Transfer {
    let id: TransferID
    let request: TransferRequest
    let delegate: TransferDelegate
    unowned let engine: TransferEngine
    let easy: UnsafeMutableRawPointer
    var paused = false
    var lastActivity = TransferEngine.now()
    /// Set when our side ended the transfer, so the resulting curl error is not blamed on the server.
    var abortReason: TransferError?

    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var aliasList: UnsafeMutablePointer<curl_slist>?
    /// curl writes its detailed message here; it must outlive the handle, so it is not a Swift array.
    private let errorBuffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        return buffer
    }()
    private var pendingHeaders = HTTPHeaders()
    private var headDelivered = false
    private var statusSeen = false

    init(id: TransferID, request: TransferRequest, delegate: TransferDelegate, engine: TransferEngine) {
        self.id = id; self.request = request; self.delegate = delegate; self.engine = engine
        easy = curl_easy_init()
    }

    func configure() throws {
        guard let scheme = URLComponents(string: request.url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw TransferError(kind: .unsupportedScheme, url: request.url, message: "only http and https URLs are fetched")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        onair_curl_setopt_string(easy, CURLOPT_URL, request.url)
        onair_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        onair_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        onair_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        onair_curl_setopt_long(easy, CURLOPT_MAXREDIRS, request.maxRedirects)
        onair_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        if let total = request.totalTimeout { onair_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(total * 1000)) }
        onair_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        onair_curl_setopt_string(easy, CURLOPT_USERAGENT, request.userAgent)
        onair_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        if let bundle = Self.certificateBundle { onair_curl_setopt_string(easy, CURLOPT_CAINFO, bundle) }
        onair_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        // Shoutcast v1 answers "ICY 200 OK"; as an alias curl parses its headers as HTTP's.
        aliasList = curl_slist_append(nil, "ICY 200 OK")
        onair_curl_setopt_slist(easy, CURLOPT_HTTP200ALIASES, aliasList)
        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        onair_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
        if let body = request.body {
            onair_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
            // curl copies the bytes, so they need not outlive this call.
            if body.isEmpty {
                onair_curl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { _ = onair_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!)) }
            }
        }
        onair_curl_setopt_write_function(easy, transferWriteCallback)
        onair_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        onair_curl_setopt_header_function(easy, transferHeaderCallback)
        onair_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
    }

    /// A CA bundle from the environment, as curl's own tool and OpenSSL read it: for stations behind
    /// a private CA, or a TLS-inspecting proxy. libcurl itself ignores these variables.
    private static let certificateBundle: String? = {
        let environment = ProcessInfo.processInfo.environment
        return [environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]].compactMap { $0 }.first { !$0.isEmpty }
    }()

    func cleanup() {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        curl_slist_free_all(aliasList)
        headerList = nil
        aliasList = nil
    }

    deinit { errorBuffer.deallocate() }

    func receiveHeaderLine(_ line: String) {
        lastActivity = TransferEngine.now()
        let trimmed = line.trimmingWhitespace()
        if trimmed.hasPrefix("HTTP/") || trimmed.hasPrefix("ICY ") {
            // A new response (after a redirect or a 100 Continue) starts a fresh header set.
            pendingHeaders = HTTPHeaders()
            statusSeen = true
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon].trimmingWhitespace())
            let value = String(trimmed[trimmed.index(after: colon)...].trimmingWhitespace())
            pendingHeaders.append(name: name, value: value)
        }
    }

    /// Hands the headers to the delegate before the first body byte (or at the end of an empty body).
    /// Returns false if the delegate wants the transfer aborted.
    @discardableResult
    func deliverHeadIfPending() -> Bool {
        guard !headDelivered, statusSeen else { return true }
        headDelivered = true
        var status = 0
        onair_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        onair_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.map { String(cString: $0) } ?? request.url
        let keepGoing = delegate.transfer(id, didReceive: ResponseHead(status: status, headers: pendingHeaders, url: url))
        if !keepGoing {
            abortReason = TransferError(kind: .cancelled, url: request.url, message: "stopped by the receiver")
        }
        return keepGoing
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = TransferEngine.now()
        guard deliverHeadIfPending(), abortReason == nil else { return 0 }
        guard delegate.transfer(id, didReceive: bytes) else {
            engine.didPause(self)
            return onair_curl_writefunc_pause()
        }
        return bytes.count
    }

    /// The error to report for curl's result code, or nil for a normal end.
    func error(for code: CURLcode) -> TransferError? {
        if let abortReason { return abortReason }
        guard code != CURLE_OK else { return nil }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: TransferError.Kind
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL: kind = .unsupportedScheme
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .dns
        case CURLE_COULDNT_CONNECT: kind = .connect
        case CURLE_OPERATION_TIMEDOUT: kind = .timeout
        case CURLE_TOO_MANY_REDIRECTS: kind = .tooManyRedirects
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE: kind = .tls
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_SEND_ERROR: kind = .connectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_BAD_CONTENT_ENCODING: kind = .protocolError
        default: kind = .other
        }
        return TransferError(kind: kind, url: request.url, message: message)
    }
}

private let transferWriteCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
}

private let transferHeaderCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
    // Header bytes are ASCII by the standard; stations send names (icy-name) in UTF-8 or Latin-1.
    transfer.receiveHeaderLine(String(utf8OrLatin1: bytes))
    return size * count
}

/// Hands a `load` result from the network thread to the thread blocked in `fetch` (or `PlaylistFetch.fetch`).
final class FetchOutcome: @unchecked Sendable {  // `result` is written before `done` is signalled and read after
    private let done = DispatchSemaphore(value: 0)
    // Written on the network thread before `done` is signalled, read after.
    private var result: Result<HTTPResponse, TransferError>?

    func set(_ result: Result<HTTPResponse, TransferError>) {
        self.result = result
        done.signal()
    }

    func wait() -> Result<HTTPResponse, TransferError> {
        done.wait()
        return result!
    }
}

/// Gathers a whole response for `TransferEngine.load`. Network thread only.
private final class BodyCollector: TransferDelegate, @unchecked Sendable {  // called on the network thread only
    private let url: String
    private let maxBytes: Int
    private let keepsErrorBody: Bool
    private let stopAfterHead: @Sendable (ResponseHead) -> Bool
    private let completion: @Sendable (Result<HTTPResponse, TransferError>) -> Void
    private var head: ResponseHead?
    private var body = Data()
    private var stoppedAfterHead = false
    private var failure: TransferError?

    init(url: String, maxBytes: Int, keepsErrorBody: Bool, stopAfterHead: @escaping @Sendable (ResponseHead) -> Bool,
         completion: @escaping @Sendable (Result<HTTPResponse, TransferError>) -> Void) {
        self.url = url; self.maxBytes = maxBytes; self.keepsErrorBody = keepsErrorBody
        self.stopAfterHead = stopAfterHead; self.completion = completion
    }

    func transfer(_ id: TransferID, didReceive head: ResponseHead) -> Bool {
        self.head = head
        if head.status >= 400 {
            failure = TransferError(kind: .http, url: url, message: "HTTP \(head.status)", status: head.status)
            return keepsErrorBody
        }
        // A redirect's head arrives only when curl did not follow it: its error says why.
        guard (200..<300).contains(head.status) else { return true }
        if stopAfterHead(head) {
            stoppedAfterHead = true
            return false
        }
        return true
    }

    func transfer(_ id: TransferID, didReceive bytes: UnsafeRawBufferPointer) -> Bool {
        if failure?.kind == .http {
            // An error's explanation: as much of it as the limit allows, then the transfer ends.
            body.append(contentsOf: bytes.prefix(maxBytes - body.count))
            return body.count < maxBytes
        }
        guard body.count + bytes.count <= maxBytes else {
            failure = TransferError(kind: .tooLarge, url: url, message: "response larger than \(maxBytes) bytes")
            body.removeAll()
            return true // swallow the rest; the failure is reported at the end
        }
        body.append(contentsOf: bytes)
        return true
    }

    func transfer(_ id: TransferID, didFinishWith error: TransferError?) {
        if failure == nil, !stoppedAfterHead {
            failure = error
            if error == nil, let status = head?.status, !(200..<300).contains(status) {
                failure = TransferError(kind: .protocolError, url: url, message: "HTTP \(status) without a usable redirect",
                                        status: status)
            }
        }
        if failure == nil && head == nil {
            failure = TransferError(kind: .protocolError, url: url, message: "no HTTP response")
        }
        if var failure {
            if failure.kind == .http && keepsErrorBody { failure.body = body }
            completion(.failure(failure))
        } else {
            completion(.success(HTTPResponse(head: head!, body: body, stoppedAfterHead: stoppedAfterHead)))
        }
    }
}
