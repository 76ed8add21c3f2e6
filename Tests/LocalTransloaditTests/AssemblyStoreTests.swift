import AssemblyLine
import ConfigFormat
import Foundation
@testable import LocalTransloadit
import TestSupport
import Testing

/// The store keeps every Assembly on disk and only the running and recently used ones in memory.
@Suite(.timeLimit(.minutes(3))) struct AssemblyStoreTests {
    static let instructions = Result { () throws(APIError) in
        try ServiceInstructions(params: ["steps": .object([":original": .object(["robot": .string("/upload/handle")])])],
                                template: nil)
    }

    /// `count` Assemblies in `store`, every one ended at `ended` but those whose number `running` holds.
    static func fill(_ store: AssemblyStore, count: Int, running: Set<Int> = [], ended: Date) throws {
        let instructions = try Self.instructions.get()
        for number in 1...count {
            let id = ServiceID.make()
            #expect(store.reserve(id, at: ended))
            var record = AssemblyRecord(id: id, sequence: store.takeSequence(), created: ended, params: "{}",
                                        instructions: instructions, fields: .object([:]), client: nil)
            if !running.contains(number) {
                record.state = .completed
                record.executionEnd = ended
            }
            try store.insert(record)
        }
    }

    @Test func finishedAssembliesLeaveMemoryAndAreReadBackFromDisk() async throws {
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000)
        try Self.fill(store, count: 300, running: [7, 150], ended: ended)
        #expect(store.residentRecords == 2 + AssemblyStore.recentLimit)

        let (newest, total) = store.newestFirst(from: 0, count: 300)
        #expect(total == 300 && newest.map(\.sequence) == Array((1...300).reversed()))
        #expect(store.residentRecords == 2 + AssemblyStore.recentLimit)
        let oldest = try #require(newest.last)
        #expect(store.record(oldest.id) == oldest)
        #expect(store.newestFirst(from: 295, count: 10).records.map(\.sequence) == [5, 4, 3, 2, 1])

        store.update(oldest.id) { $0.client = "changed while out of memory" }
        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)
        #expect(reopened.record(oldest.id)?.client == "changed while out of memory")
        #expect(reopened.running().map(\.sequence) == [7, 150])
        #expect(reopened.ended(atOrBefore: ended).count == 298 && reopened.ended(atOrBefore: ended.addingTimeInterval(-1)).isEmpty)
        #expect(reopened.residentRecords == 3)
        #expect(!reopened.reserve(oldest.id, at: ended))
        #expect(reopened.recordsReadAtOpen == 2, "only the running Assemblies' records are read to open the store")
    }

    @Test func aStoreOfManyAssembliesOpensFromOneFileAndServesOldAndNewOnes() async throws {
        // Given 1,000 Assemblies, 2 of them running
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000.125)
        try Self.fill(store, count: 1_000, running: [3, 700], ended: ended)
        let (all, _) = store.newestFirst(from: 0, count: 1_000)
        let oldest = try #require(all.last)

        // When the store opens again
        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)

        // Then it read the running ones' records, and `ended.log` instead of a file in each ended one's directory
        #expect(reopened.recordsReadAtOpen == 2)
        let stored = try FileManager.default.contentsOfDirectory(atPath: directory.file("data/assemblies/\(oldest.id)"))
        #expect(stored.sorted() == ["assembly.json", "files"])
        let journal = try String(contentsOfFile: directory.file("data/ended.log"), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 998)
        #expect(reopened.ended(atOrBefore: ended).count == 998)
        #expect(reopened.running().map(\.sequence) == [3, 700])

        // And it serves the oldest Assembly and a new one, numbered after every stored one
        #expect(reopened.record(oldest.id) == oldest)
        let new = AssemblyRecord(id: ServiceID.make(), sequence: reopened.takeSequence(), created: ended, params: "{}",
                                 instructions: try Self.instructions.get(), fields: .object([:]), client: nil)
        #expect(reopened.reserve(new.id, at: ended))
        try reopened.insert(new)
        #expect(new.sequence == 1_001)
        #expect(reopened.record(new.id) == new)
        #expect(reopened.newestFirst(from: 0, count: 2).records.map(\.id) == [new.id, all[0].id])
        #expect(reopened.newestFirst(from: 999, count: 5).records == [all[998], oldest])
    }

    @Test func theListingKeepsCreationOrderAsAssembliesAreStoredAfterIt() async throws {
        // Given five Assemblies, listed once
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000)
        try Self.fill(store, count: 5, ended: ended)
        let listed = store.newestFirst(from: 0, count: 50).records.map(\.id)

        // When two creations store their Assemblies in the other order than they were numbered, and one is read again
        let instructions = try Self.instructions.get()
        let earlier = AssemblyRecord(id: ServiceID.make(), sequence: store.takeSequence(), created: ended, params: "{}",
                                     instructions: instructions, fields: .object([:]), client: nil)
        let later = AssemblyRecord(id: ServiceID.make(), sequence: store.takeSequence(), created: ended, params: "{}",
                                   instructions: instructions, fields: .object([:]), client: nil)
        #expect(store.reserve(later.id, at: ended) && store.reserve(earlier.id, at: ended))
        try store.insert(later)
        try store.insert(earlier)
        store.update(listed[4]) { $0.client = "read again" }

        // Then every page lists them by creation number, as a new store on the directory does
        let expected = [later.id, earlier.id] + listed
        #expect(store.newestFirst(from: 0, count: 50).records.map(\.id) == expected)
        #expect(store.newestFirst(from: 2, count: 3).records.map(\.id) == Array(listed[0..<3]))
        #expect(store.newestFirst(from: 6, count: 3).records.map(\.id) == [listed[4]])
        #expect(store.newestFirst(from: 7, count: 3).records.isEmpty && store.newestFirst(from: 7, count: 3).total == 7)
        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)
        #expect(reopened.newestFirst(from: 0, count: 50).records.map(\.id) == expected)
    }

    @Test func aLineCutOffByACrashIsDroppedAndItsAssemblyIndexedFromItsRecord() async throws {
        // Given two Assemblies that ended, the line of the second cut off in its end, and one running
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000.25)
        try Self.fill(store, count: 3, running: [1, 2, 3], ended: ended)
        let (records, _) = store.newestFirst(from: 0, count: 3)
        store.update(records[0].id) { $0.state = .completed; $0.executionEnd = ended }
        store.update(records[1].id) { $0.state = .completed; $0.executionEnd = ended }
        let journal = directory.file("data/ended.log")
        let whole = try #require(FileManager.default.contents(atPath: journal))
        try whole.dropLast(9).write(to: URL(fileURLWithPath: journal))

        // When the store opens again
        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)

        // Then the cut line does not count (its digits would say 1970), the record says when it ended
        #expect(reopened.recordsReadAtOpen == 2, "the running one, and the one whose line was cut off")
        #expect(reopened.running().map(\.id) == [records[2].id])
        #expect(Set(reopened.ended(atOrBefore: ended)) == [records[0].id, records[1].id])
        #expect(reopened.ended(atOrBefore: ended.addingTimeInterval(-1)).isEmpty)
        #expect(reopened.newestFirst(from: 0, count: 3).records.map(\.id) == records.map(\.id))
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "the cut line is gone, the line read again whole")
        let third = try AssemblyStore(root: directory.file("data"), log: .silent)
        #expect(third.recordsReadAtOpen == 1, "the line of the record read was appended again")
    }

    @Test func theEndedFilesOfAnEarlierStoreIndexItsAssembliesOnceAndGoToTheJournal() async throws {
        // Given a store from before `ended.log`: one Assembly with its `ended` file, two ended before those files
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000.5)
        try Self.fill(store, count: 3, ended: ended)
        let (records, _) = store.newestFirst(from: 0, count: 3)
        try FileManager.default.removeItem(atPath: directory.file("data/ended.log"))
        let endedFile = directory.file("data/assemblies/\(records[0].id)/ended")
        try Data("\(records[0].sequence) 1800000000500.0".utf8).write(to: URL(fileURLWithPath: endedFile))

        // When it opens, and opens again without the `ended` file
        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)
        try FileManager.default.removeItem(atPath: endedFile)
        let third = try AssemblyStore(root: directory.file("data"), log: .silent)

        // Then the first open reads the two records alone, and the journal it writes opens the next one
        #expect(reopened.recordsReadAtOpen == 2)
        #expect(third.recordsReadAtOpen == 0)
        #expect(Set(third.ended(atOrBefore: ended)) == Set(records.map(\.id)))
        #expect(third.newestFirst(from: 0, count: 3).records == records)
    }
}
