import Foundation

/// A segment ready for the demuxer.
struct LoadedSegment: Sendable {
    var segment: MediaSegment
    var head: ResponseHead
    /// The media type to hint the demuxer with: the server's, or the file extension's when the server's says nothing.
    var contentType: String?
    /// The decrypted payload, without the ID3 tags packed audio starts with.
    var payload: Data
    /// The initialisation section (fMP4), for when the segment starts a run.
    var initSection: Data?
    /// ID3 tags found at the start of the payload (packed audio's now-playing titles).
    var tags: [ID3Tag]
}

/// Why a segment (or its key, or its init section) could not be had.
struct SegmentFailure: Error, Sendable, CustomStringConvertible {
    var message: String
    /// Worth trying again: the network or the server had a moment, the segment itself is fine.
    var isTransient: Bool
    /// The HTTP status the server refused it with, if it did.
    var status: Int?

    init(_ error: TransferError) {
        message = error.message
        isTransient = error.isTransient
        status = error.status
    }

    init(message: String, isTransient: Bool) {
        self.message = message; self.isTransient = isTransient
    }

    var description: String { message }
}

/// Fetches what one segment needs — its key, its init section, its bytes — as engine transfers,
/// decrypts it, and takes off the ID3 tags of packed audio. Network thread only: every method is
/// called there and every completion runs there.
final class SegmentLoader: @unchecked Sendable {  // used on the network thread only
    /// Largest segment (or init section, or resource a byte range is cut from) accepted.
    static let maxSegmentBytes = 32 << 20
    /// Keys kept: a live stream rotates keys now and then, so a few suffice.
    private static let cachedKeyCount = 4

    private let engine: TransferEngine
    private let options: LiveStreamOptions
    private var transfer: TransferID?
    private var keys: [(url: String, key: [UInt8])] = []
    private var cachedInit: (section: InitSection, data: Data)?

    init(engine: TransferEngine, options: LiveStreamOptions) {
        self.engine = engine; self.options = options
    }

    /// Loads `segment`; `completion` runs on the network thread unless `cancel` comes first.
    func load(_ segment: MediaSegment, completion: @escaping @Sendable (Result<LoadedSegment, SegmentFailure>) -> Void) {
        loadInitSection(segment.initSection) { [self] initResult in
            switch initResult {
            case .failure(let failure):
                completion(.failure(failure))
            case .success(let initData):
                fetch(segment.url, range: segment.byteRange, encryption: segment.encryption) { result in
                    completion(result.map { head, body in
                        let (tags, tagBytes) = ID3Tag.leadingTags(in: body)
                        let typeHint = AudioContentType.demuxerHint(for: head.mediaType) != nil ? head.mediaType
                            : AudioContentType.mediaType(forSegmentPath: URL(string: segment.url)?.path ?? "") ?? head.mediaType
                        return LoadedSegment(segment: segment, head: head, contentType: typeHint, payload: body.dropFirst(tagBytes),
                                             initSection: initData, tags: tags)
                    })
                }
            }
        }
    }

    /// Abandons the transfer in flight; its completion never runs.
    func cancel() {
        if let transfer { engine.cancel(transfer) }
        transfer = nil
    }

    private func loadInitSection(_ section: InitSection?, completion: @escaping @Sendable (Result<Data?, SegmentFailure>) -> Void) {
        guard let section else { return completion(.success(nil)) }
        if let cachedInit, cachedInit.section == section { return completion(.success(cachedInit.data)) }
        fetch(section.url, range: section.byteRange, encryption: section.encryption) { [self] result in
            completion(result.map { _, data in
                cachedInit = (section, data)
                return data
            })
        }
    }

    /// One resource (or a byte range of it), decrypted when it is encrypted.
    private func fetch(_ url: String, range: ByteRange?, encryption: SegmentEncryption?,
                       completion: @escaping @Sendable (Result<(ResponseHead, Data), SegmentFailure>) -> Void) {
        key(for: encryption) { [self] keyResult in
            guard case .success(let key) = keyResult else {
                if case .failure(let failure) = keyResult { completion(.failure(failure)) }
                return
            }
            let headers = range.map { [("Range", $0.httpRange)] } ?? []
            let request = TransferRequest(url: url, headers: headers, connectTimeout: options.connectTimeout,
                                          stallTimeout: options.stallTimeout, userAgent: options.userAgent)
            transfer = engine.load(request, maxBytes: Self.maxSegmentBytes) { [self] result in
                transfer = nil
                completion(Self.payload(of: result, range: range).flatMap { head, body in
                    guard let encryption, let key else { return .success((head, body)) }
                    do {
                        return .success((head, try SegmentDecryptor.decrypt(body, key: key, iv: encryption.iv)))
                    } catch {
                        return .failure(SegmentFailure(message: "\(error)", isTransient: false))
                    }
                })
            }
        }
    }

    /// The bytes a response holds for `range`: all of a 206, or the range cut from a server's whole 200.
    private static func payload(of result: Result<HTTPResponse, TransferError>,
                                range: ByteRange?) -> Result<(ResponseHead, Data), SegmentFailure> {
        switch result {
        case .failure(let error):
            return .failure(SegmentFailure(error))
        case .success(let response):
            guard let range, response.head.status != 206 else { return .success((response.head, response.body)) }
            guard response.body.count >= range.offset + range.length else {
                return .failure(SegmentFailure(message: "the resource ends before byte range \(range.httpRange)", isTransient: false))
            }
            let start = response.body.startIndex + range.offset
            return .success((response.head, response.body[start..<start + range.length]))
        }
    }

    private func key(for encryption: SegmentEncryption?, completion: @escaping @Sendable (Result<[UInt8]?, SegmentFailure>) -> Void) {
        guard let encryption else { return completion(.success(nil)) }
        if let cached = keys.first(where: { $0.url == encryption.keyURL }) { return completion(.success(cached.key)) }
        let request = TransferRequest(url: encryption.keyURL, connectTimeout: options.connectTimeout,
                                      stallTimeout: options.stallTimeout, userAgent: options.userAgent)
        transfer = engine.load(request, maxBytes: 64) { [self] result in
            transfer = nil
            switch result {
            case .failure(let error):
                completion(.failure(SegmentFailure(message: "key \(URLRedaction.redact(encryption.keyURL)): \(error.message)",
                                                   isTransient: error.isTransient)))
            case .success(let response):
                let key = [UInt8](response.body)
                guard key.count == 16 else {
                    return completion(.failure(SegmentFailure(message: "the key at \(URLRedaction.redact(encryption.keyURL)) is \(key.count) bytes, not 16",
                                                              isTransient: false)))
                }
                keys.append((encryption.keyURL, key))
                if keys.count > Self.cachedKeyCount { keys.removeFirst() }
                completion(.success(key))
            }
        }
    }
}
