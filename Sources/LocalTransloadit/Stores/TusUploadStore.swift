import Foundation
import Synchronization

/// The tus uploads of a data directory and their bytes so far, surviving restarts.
///
/// The bytes of an unfinished upload are `tus/<id>.part`; its offset is that file's length, so
/// only creation and completion write metadata. One PATCH at a time may write an upload: a second
/// one waits for nothing and is refused (423). The MD5 of the bytes so far is kept in memory beside
/// the offset, so that a completed upload is not read again; after a restart it is computed from the file.
final class TusUploadStore: Sendable {
    let directory: String

    private struct Entry {
        var upload: TusUpload
        var offset: Int64
        var busy = false
        /// The MD5 of the first `offset` bytes, when this process saw them all arrive.
        var md5: RunningDigest?
    }

    /// The result of claiming an upload for a PATCH.
    enum Claim {
        /// The PATCH may write; `md5` (a copy, when known) is the MD5 so far for it to go on with.
        case claimed(TusUpload, md5: RunningDigest?)
        case notFound
        case conflict(offset: Int64)
        case locked
    }

    private let entries: Mutex<[String: Entry]>

    /// Loads every upload under `directory` (which must exist).
    init(directory: String) throws(LocalServiceError) {
        self.directory = directory
        var loaded: [String: Entry] = [:]
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".json") {
            let path = "\(directory)/\(name)"
            do {
                let upload = try StoredFormat.decoder.decode(TusUpload.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                let size = (try? manager.attributesOfItem(atPath: "\(directory)/\(upload.id).part")[.size] as? NSNumber)?.int64Value ?? 0
                let offset = upload.finished ? upload.length : min(size, upload.length)
                loaded[upload.id] = Entry(upload: upload, offset: offset, md5: offset == 0 ? RunningDigest() : nil)
            } catch {
                throw .unreadableState(path: path, reason: "\(error)")
            }
        }
        entries = Mutex(loaded)
    }

    func dataPath(_ id: String) -> String { "\(directory)/\(id).part" }

    /// Records a new upload with an empty data file.
    func create(_ upload: TusUpload) throws(APIError) {
        guard FileManager.default.createFile(atPath: dataPath(upload.id), contents: nil) else {
            throw .internalError("cannot create the tus upload's data file")
        }
        try persist(upload)
        entries.withLock { $0[upload.id] = Entry(upload: upload, offset: 0, md5: RunningDigest()) }
    }

    /// The upload and its offset.
    func upload(_ id: String) -> (upload: TusUpload, offset: Int64)? {
        entries.withLock { entries in entries[id].map { ($0.upload, $0.offset) } }
    }

    /// Claims an upload for a PATCH that starts at `offset`.
    func claim(_ id: String, at offset: Int64) -> Claim {
        entries.withLock { entries in
            guard var entry = entries[id] else { return .notFound }
            guard !entry.busy else { return .locked }
            guard entry.offset == offset else { return .conflict(offset: entry.offset) }
            entry.busy = true
            entries[id] = entry
            return .claimed(entry.upload, md5: entry.md5?.copy())
        }
    }

    /// Ends a PATCH: the upload's offset is now `offset`, and `md5` the MD5 up to it (nil when unknown).
    /// A PATCH that kept nothing (same offset) leaves the MD5 as it was.
    func release(_ id: String, offset: Int64, md5: RunningDigest?) {
        entries.withLock { entries in
            guard var entry = entries[id] else { return }
            if offset != entry.offset { entry.md5 = md5 }
            entry.offset = offset
            entry.busy = false
            entries[id] = entry
        }
    }

    /// The MD5 of a whole upload when this process saw every byte arrive, for its completion; nil otherwise.
    func takeMD5(_ id: String) -> String? {
        entries.withLock { entries in
            guard let entry = entries[id], entry.offset == entry.upload.length, let md5 = entry.md5 else { return nil }
            entries[id]?.md5 = nil
            return md5.finalizeHex()
        }
    }

    /// Marks an upload complete (its bytes have moved into its Assembly, or were dropped).
    func markFinished(_ id: String) {
        let upload = entries.withLock { entries -> TusUpload? in
            entries[id]?.upload.finished = true
            return entries[id]?.upload
        }
        if let upload { try? persist(upload) }
    }

    /// Forgets an upload and deletes its files (tus termination).
    func remove(_ id: String) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
        try? FileManager.default.removeItem(atPath: dataPath(id))
        try? FileManager.default.removeItem(atPath: "\(directory)/\(id).json")
    }

    /// Offsets of the unfinished uploads of an Assembly, by upload ID.
    func liveOffsets(assembly: String) -> [String: Int64] {
        entries.withLock { entries in
            entries.values.filter { $0.upload.assemblyID == assembly && !$0.upload.finished }
                .reduce(into: [:]) { $0[$1.upload.id] = $1.offset }
        }
    }

    private func persist(_ upload: TusUpload) throws(APIError) {
        do {
            try StoredFormat.encoder.encode(upload).write(to: URL(fileURLWithPath: "\(directory)/\(upload.id).json"), options: .atomic)
        } catch {
            throw .internalError("cannot write the tus upload's metadata: \(FileFailureText.reason(of: error))")
        }
    }
}
