import AssemblyLine
import Foundation
import Synchronization

/// Every Assembly of a data directory: on disk so that a restart keeps them, in memory only while
/// they run or were touched lately, so that the service's memory stays flat however many it holds.
///
/// Layout under the data directory:
/// - `assemblies/<id>/assembly.json`: the record, rewritten atomically after each change
/// - `assemblies/<id>/files/<file id>`: uploads and results
/// - `ended.log`: a line for each Assembly that ended, its creation number and end (see ``EndedJournal``), so that
///   opening the store indexes it without reading its record (1.5 ms for a record of 50 results: 30 s for the
///   20,000 Assemblies of a night of a million files) nor any other file of its directory
/// - `tmp/`: multipart uploads while they arrive
/// - `tus/`: tus uploads while they arrive (see ``TusUploadStore``)
///
/// In memory: a small index entry for every Assembly (its creation number and end), the records
/// of running Assemblies, and the ``recentLimit`` finished ones used last; any other record is
/// read from disk when asked for.
///
/// IDs are reserved while a creating request is still uploading, so two requests can never
/// create the same client-chosen ID; the reservation counts the bytes received, which a status
/// request for the ID answers with (`ASSEMBLY_UPLOADING`), as production does.
final class AssemblyStore: Sendable {
    let root: String
    private let log: ServiceLog
    /// Where every change of a stored Assembly is published, for the change streams.
    let changes = AssemblyChangeHub()

    /// The finished records kept in memory, the last used.
    static let recentLimit = 64

    /// A creation whose body is still arriving: the bytes so far, and those its `Content-Length` announced.
    struct Arrival: Sendable, Hashable {
        var started: Date
        var received: Int64 = 0
        var expected: Int64?
    }

    /// What is kept of every Assembly: enough to list them in order and to find those past their lifetime.
    private struct IndexEntry {
        var sequence: Int
        var ended: Date?
    }

    private struct State {
        var index: [String: IndexEntry] = [:]
        var running: [String: AssemblyRecord] = [:]
        var recent: [String: AssemblyRecord] = [:]
        /// The IDs of ``recent``, least recently used first.
        var recentOrder: [String] = []
        var reserved: [String: Arrival] = [:]
        var nextSequence = 1
        /// The IDs of ``index`` oldest first: made by the first listing, then kept in order, so that a page of the
        /// listing is not a sort of every Assembly.
        var byCreation: [String]?

        /// Keeps `record` in memory where it belongs now: with the running ones, or as the most recent finished one.
        mutating func hold(_ record: AssemblyRecord) {
            if index.updateValue(IndexEntry(sequence: record.sequence, ended: record.executionEnd), forKey: record.id) == nil {
                placeInCreationOrder(record)
            }
            if record.state.isRunning {
                running[record.id] = record
                return
            }
            running[record.id] = nil
            if recent.updateValue(record, forKey: record.id) != nil {
                recentOrder.removeAll { $0 == record.id }
            }
            recentOrder.append(record.id)
            if recentOrder.count > AssemblyStore.recentLimit {
                recent[recentOrder.removeFirst()] = nil
            }
        }

        /// ``byCreation``, made now if no listing made it yet.
        mutating func inCreationOrder() -> [String] {
            if let byCreation { return byCreation }
            let made = index.sorted { $0.value.sequence < $1.value.sequence }.map(\.key)
            byCreation = made
            return made
        }

        /// Places a new Assembly in ``byCreation`` (once made): last, unless a creation numbered after it was stored first.
        private mutating func placeInCreationOrder(_ record: AssemblyRecord) {
            guard var ids = byCreation.take() else { return }
            var position = ids.endIndex
            while position > ids.startIndex, let before = index[ids[position - 1]], before.sequence > record.sequence {
                position -= 1
            }
            ids.insert(record.id, at: position)
            byCreation = ids
        }
    }

    private let state: Mutex<State>
    private let journal: EndedJournal
    /// How many records opening the store read (those of running Assemblies, or of ended ones `ended.log` misses).
    let recordsReadAtOpen: Int

    /// Opens (creating if needed) the data directory and indexes every stored Assembly.
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
        let journal = EndedJournal(path: "\(root)/ended.log")
        let journaled = journal.read()
        var loaded = State()
        var read = 0
        var unjournaled: [(id: String, entry: EndedJournal.Entry)] = []
        let names = (try? manager.contentsOfDirectory(atPath: "\(root)/assemblies")) ?? []
        loaded.index.reserveCapacity(names.count)
        for name in names where AssemblyID(name) != nil {
            // Ended Assemblies stored before `ended.log` have an `ended` file of the same text instead.
            if let entry = journaled[name] ?? Self.endedFile(of: "\(root)/assemblies/\(name)") {
                loaded.index[name] = IndexEntry(sequence: entry.sequence, ended: entry.end)
                loaded.nextSequence = max(loaded.nextSequence, entry.sequence + 1)
                if journaled[name] == nil { unjournaled.append((name, entry)) }
                continue
            }
            let path = "\(root)/assemblies/\(name)/assembly.json"
            guard let data = manager.contents(atPath: path) else { continue }
            do {
                let record = try StoredFormat.decoder.decode(AssemblyRecord.self, from: data)
                read += 1
                if !record.state.isRunning, let end = record.executionEnd {
                    unjournaled.append((record.id, EndedJournal.Entry(sequence: record.sequence, end: end)))
                }
                loaded.index[record.id] = IndexEntry(sequence: record.sequence, ended: record.executionEnd)
                if record.state.isRunning { loaded.running[record.id] = record }
                loaded.nextSequence = max(loaded.nextSequence, record.sequence + 1)
            } catch {
                throw .unreadableState(path: path, reason: "\(error)")
            }
        }
        do {
            try journal.append(unjournaled)
        } catch {
            log("error: cannot write \(journal.path): \(FileFailureText.reason(of: error))")
        }
        self.journal = journal
        state = Mutex(loaded)
        recordsReadAtOpen = read
    }

    /// The entry the `ended` file of an Assembly directory of an earlier store holds, nil when it has none.
    private static func endedFile(of directory: String) -> EndedJournal.Entry? {
        guard let data = FileManager.default.contents(atPath: "\(directory)/ended") else { return nil }
        return EndedJournal.Entry(Substring(String(decoding: data, as: UTF8.self)))
    }

    // MARK: - Paths

    func directory(of id: String) -> String { "\(root)/assemblies/\(id)" }

    /// The stored path (relative to the data directory) of a new file of an Assembly.
    func storedPath(assembly id: String, file: String) -> String { "assemblies/\(id)/files/\(file)" }

    func absolute(_ storedPath: String) -> String { "\(root)/\(storedPath)" }

    var temporaryDirectory: String { "\(root)/tmp" }

    // MARK: - Records

    /// Holds `id` for a creation in progress started at `started`, whose body announced `expected` bytes; false when it
    /// exists or is already held.
    func reserve(_ id: String, expecting expected: Int64? = nil, at started: Date) -> Bool {
        state.withLock { state in
            guard state.index[id] == nil, state.reserved[id] == nil else { return false }
            state.reserved[id] = Arrival(started: started, expected: expected)
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
            throw .internalError("cannot create the Assembly's directory: \(FileFailureText.reason(of: error))")
        }
        state.withLock { state in
            state.reserved.removeValue(forKey: record.id)
            state.hold(record)
            write(record)
            if !record.state.isRunning { writeEnded(record) }
        }
        changes.publish(AssemblyChange.between(nil, record), of: record.id)
    }

    func record(_ id: String) -> AssemblyRecord? {
        state.withLock { state in load(id, in: &state) }
    }

    /// Changes a stored Assembly and writes it out (unless `durably` is false: a change that a restart
    /// redoes anyway, kept in memory and published only); nil when there is no such Assembly.
    @discardableResult
    func update<Result>(_ id: String, durably: Bool = true, _ change: (inout AssemblyRecord) -> Result) -> Result? {
        let outcome = state.withLock { state -> (Result, [AssemblyChange])? in
            guard let before = load(id, in: &state) else { return nil }
            var record = before
            let result = change(&record)
            guard record != before else { return (result, []) }
            state.hold(record)
            if durably {
                write(record)
                if before.state.isRunning, !record.state.isRunning { writeEnded(record) }
            }
            return (result, AssemblyChange.between(before, record))
        }
        guard let (result, found) = outcome else { return nil }
        changes.publish(found, of: id)
        return result
    }

    /// One page of Assemblies, newest first, and how many there are in all.
    func newestFirst(from start: Int, count: Int) -> (records: [AssemblyRecord], total: Int) {
        state.withLock { state in
            let ids = state.inCreationOrder()
            let end = ids.count - min(ids.count, start)
            let page = ids[(end - min(end, count))..<end].reversed()
            return (page.compactMap { load($0, in: &state) }, ids.count)
        }
    }

    /// How many records are held in memory now (running ones and recent ones), for tests and benchmarks.
    var residentRecords: Int {
        state.withLock { $0.running.count + $0.recent.count }
    }

    /// The running Assemblies, oldest first.
    func running() -> [AssemblyRecord] {
        state.withLock { Array($0.running.values) }.sorted { $0.sequence < $1.sequence }
    }

    /// The Assemblies that ended at or before `date`.
    func ended(atOrBefore date: Date) -> [String] {
        state.withLock { state in state.index.compactMap { id, entry in entry.ended.flatMap { $0 <= date ? id : nil } } }
    }

    /// Deletes every file an Assembly holds on disk (its record stays, so its status still answers).
    func removeFiles(of id: String) {
        let directory = "\(directory(of: id))/files"
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
            try? manager.removeItem(atPath: "\(directory)/\(name)")
        }
    }

    /// The record from memory, else from disk (kept as the most recent); called with the lock held.
    private func load(_ id: String, in state: inout State) -> AssemblyRecord? {
        if let record = state.running[id] { return record }
        if let record = state.recent[id] {
            state.hold(record)
            return record
        }
        guard state.index[id] != nil else { return nil }
        let path = "\(directory(of: id))/assembly.json"
        do {
            let record = try StoredFormat.decoder.decode(AssemblyRecord.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            state.hold(record)
            return record
        } catch {
            log("error: cannot read \(path): \(error)")
            return nil
        }
    }

    /// Appends the line of a record that no longer runs to `ended.log`, after its record (a crash in between leaves a
    /// record without it, which the next open reads); called with the lock held, in the order of the changes.
    private func writeEnded(_ record: AssemblyRecord) {
        guard let end = record.executionEnd else { return }
        do {
            try journal.append([(record.id, EndedJournal.Entry(sequence: record.sequence, end: end))])
        } catch {
            log("error: cannot write \(journal.path): \(FileFailureText.reason(of: error))")
        }
    }

    /// Writes a record atomically; called with the lock held so that writes keep the order of changes.
    private func write(_ record: AssemblyRecord) {
        let path = "\(directory(of: record.id))/assembly.json"
        do {
            try StoredFormat.encoder.encode(record).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            log("error: cannot write \(path): \(error.localizedDescription)")
        }
    }
}
