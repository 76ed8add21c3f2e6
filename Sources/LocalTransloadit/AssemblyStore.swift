import AssemblyLine
import Foundation
import Synchronization

/// Every Assembly of a data directory: in memory for answers, and on disk so that a restart keeps them.
///
/// Layout under the data directory:
/// - `assemblies/<id>/assembly.json`: the record, rewritten atomically after each change
/// - `assemblies/<id>/files/<file id>`: uploads and results
/// - `tmp/`: multipart uploads while they arrive
/// - `tus/`: tus uploads while they arrive (see ``TusUploadStore``)
///
/// IDs are reserved while a creating request is still uploading, so two requests can never
/// create the same client-chosen ID; the reservation counts the bytes received, which a status
/// request for the ID answers with (`ASSEMBLY_UPLOADING`), as production does.
final class AssemblyStore: Sendable {
    let root: String
    private let log: ServiceLog

    /// A creation whose body is still arriving: the bytes so far, and those its `Content-Length` announced.
    struct Arrival: Sendable, Hashable {
        var started: Date
        var received: Int64 = 0
        var expected: Int64?
    }

    private struct State {
        var records: [String: AssemblyRecord] = [:]
        var reserved: [String: Arrival] = [:]
        var nextSequence = 1
    }

    private let state: Mutex<State>

    /// Opens (creating if needed) the data directory and loads every stored Assembly.
    init(root: String, log: ServiceLog) throws(LocalServiceError) {
        self.root = root
        self.log = log
        let manager = FileManager.default
        for directory in ["assemblies", "tmp", "tus"] {
            do {
                try manager.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
            } catch {
                throw .dataDirectoryUnusable(path: root, reason: "\(error.localizedDescription)")
            }
        }
        var loaded = State()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        let names = (try? manager.contentsOfDirectory(atPath: "\(root)/assemblies")) ?? []
        for name in names where AssemblyID(name) != nil {
            let path = "\(root)/assemblies/\(name)/assembly.json"
            guard let data = manager.contents(atPath: path) else { continue }
            do {
                let record = try decoder.decode(AssemblyRecord.self, from: data)
                loaded.records[record.id] = record
                loaded.nextSequence = max(loaded.nextSequence, record.sequence + 1)
            } catch {
                throw .unreadableState(path: path, reason: "\(error)")
            }
        }
        state = Mutex(loaded)
    }

    // MARK: - Paths

    func directory(of id: String) -> String { "\(root)/assemblies/\(id)" }

    /// The stored path (relative to the data directory) of a new file of an Assembly.
    func storedPath(assembly id: String, file: String) -> String { "assemblies/\(id)/files/\(file)" }

    func absolute(_ storedPath: String) -> String { "\(root)/\(storedPath)" }

    var temporaryDirectory: String { "\(root)/tmp" }

    // MARK: - Records

    /// Holds `id` for a creation in progress, whose body announced `expected` bytes; false when it exists or is already held.
    func reserve(_ id: String, expecting expected: Int64? = nil) -> Bool {
        state.withLock { state in
            guard state.records[id] == nil, state.reserved[id] == nil else { return false }
            state.reserved[id] = Arrival(started: Date(), expected: expected)
            return true
        }
    }

    /// Counts bytes of a reserved creation's body.
    func arrived(_ id: String, bytes: Int) {
        state.withLock { $0.reserved[id]?.received += Int64(bytes) }
    }

    /// The arrival of a creation still uploading, nil when none holds `id`.
    func arrival(of id: String) -> Arrival? {
        state.withLock { $0.reserved[id] }
    }

    /// Gives up a reservation whose creation failed.
    func release(_ id: String) {
        _ = state.withLock { $0.reserved.removeValue(forKey: id) }
    }

    /// The next creation number.
    func takeSequence() -> Int {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
    }

    /// Stores a new Assembly (ending its reservation) and writes it to disk.
    func insert(_ record: AssemblyRecord) throws(APIError) {
        do {
            try FileManager.default.createDirectory(atPath: "\(directory(of: record.id))/files", withIntermediateDirectories: true)
        } catch {
            release(record.id)
            throw .internalError("cannot create the Assembly's directory: \(error.localizedDescription)")
        }
        state.withLock { state in
            state.reserved.removeValue(forKey: record.id)
            state.records[record.id] = record
            write(record)
        }
    }

    func record(_ id: String) -> AssemblyRecord? {
        state.withLock { $0.records[id] }
    }

    /// Changes a stored Assembly and writes it out; nil when there is no such Assembly.
    @discardableResult
    func update<Result>(_ id: String, _ change: (inout AssemblyRecord) -> Result) -> Result? {
        state.withLock { state in
            guard var record = state.records[id] else { return nil }
            let result = change(&record)
            state.records[id] = record
            write(record)
            return result
        }
    }

    /// All Assemblies, newest first.
    func newestFirst() -> [AssemblyRecord] {
        state.withLock { Array($0.records.values) }.sorted { $0.sequence > $1.sequence }
    }

    /// Writes a record atomically; called with the lock held so that writes keep the order of changes.
    private func write(_ record: AssemblyRecord) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let path = "\(directory(of: record.id))/assembly.json"
        do {
            try encoder.encode(record).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            log("error: cannot write \(path): \(error.localizedDescription)")
        }
    }
}
