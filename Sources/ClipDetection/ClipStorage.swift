import Foundation
import RadioModel
import SharedStore
import Store

/// The reference clips, wherever they are kept: `ClipLibrary` (the data directory's SQLite file) or
/// `PostgresClipLibrary` (the database daemons share, so a clip added once is listened for by all of them).
public protocol ClipLibraryStorage: Sendable {
    /// Adds a clip under a name not taken yet (else a `ClipError` of reason `nameTaken`).
    @discardableResult
    func add(name: String, kind: ReferenceClip.Kind, seconds: Double, fingerprint: Fingerprint) throws(ClipError) -> ReferenceClip
    /// Every clip, in the order they were added.
    func all() throws(ClipError) -> [ReferenceClip]
    /// Removes the clip with this name, else with this id; returns it, nil if there is none.
    func remove(_ nameOrID: String) throws(ClipError) -> ReferenceClip?
    /// Removes the clip with this id; returns it, nil if there is none.
    func remove(id: Int64) throws(ClipError) -> ReferenceClip?
    /// Keeps a track a station named as a song clip of that name, unless a clip has that name already; the learned clips
    /// beyond `most` go, oldest first. Returns the clip kept, nil when the name was known.
    func learn(_ track: LearnedTrack, keepingAtMost most: Int) throws(ClipError) -> ReferenceClip?
    /// A number that changes whenever a clip is added, changed or removed, by any process (a trigger counts): what
    /// a daemon watching its stations notices `onair clips add` by.
    func revision() throws(ClipError) -> Int64
}

/// Every airing of a clip that was heard, wherever it is kept: `AiringLog` (SQLite) or `PostgresAiringLog` (shared).
/// Kept by name, kind and station as they were when it aired, so removing a clip keeps its history.
public protocol AiringStorage: Sendable {
    func add(_ sighting: ClipSighting) throws(ClipError)
    /// The airings of `clip` (any, when nil) of `kind` on `station` that began at or after `since` and before `until`: the
    /// newest `limit` of them (all, when nil), oldest first.
    func airings(clip: String?, kind: String?, station: String?, since: Date?, until: Date?, limit: Int?) throws(ClipError) -> [ClipSighting]
}

extension AiringStorage {
    public func airings(clip: String? = nil, kind: String? = nil, station: String? = nil, since: Date? = nil, until: Date? = nil,
                        limit: Int? = nil) throws(ClipError) -> [ClipSighting] {
        try airings(clip: clip, kind: kind, station: station, since: since, until: until, limit: limit)
    }
}

/// The clip library and the airings heard: in the data directory's database, or in the one daemons share.
public struct ClipStores: Sendable {
    public let library: any ClipLibraryStorage
    public let airings: any AiringStorage

    public init(dataDirectory: URL) throws(ClipError) {
        let database: OnairDatabase
        do { database = try OnairDatabase(directory: dataDirectory) } catch { throw ClipError("\(error)") }
        library = try ClipLibrary(database: database)
        airings = try AiringLog(database: database)
    }

    public init(shared database: SharedDatabase) throws(ClipError) {
        library = try PostgresClipLibrary(database: database)
        airings = try PostgresAiringLog(database: database)
    }
}
