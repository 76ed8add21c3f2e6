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

    @Test func anAssemblyThatEndsIsIndexedWithoutItsRecordAndOneWithoutTheFileIsRead() async throws {
        let directory = try TemporaryDirectory()
        let store = try AssemblyStore(root: directory.file("data"), log: .silent)
        let ended = Date(timeIntervalSince1970: 1_800_000_000.25)
        try Self.fill(store, count: 3, running: [1, 2, 3], ended: ended)
        let (records, _) = store.newestFirst(from: 0, count: 3)
        store.update(records[0].id) { $0.state = .completed; $0.executionEnd = ended }
        store.update(records[1].id) { $0.state = .completed; $0.executionEnd = ended }
        try FileManager.default.removeItem(atPath: directory.file("data/assemblies/\(records[1].id)/ended"))

        let reopened = try AssemblyStore(root: directory.file("data"), log: .silent)

        #expect(reopened.recordsReadAtOpen == 2, "the running one, and the one ended before its file existed")
        #expect(reopened.running().map(\.id) == [records[2].id])
        #expect(Set(reopened.ended(atOrBefore: ended)) == [records[0].id, records[1].id])
        #expect(reopened.newestFirst(from: 0, count: 3).records.map(\.id) == records.map(\.id))
        #expect(reopened.record(records[0].id)?.state == .completed)
        let third = try AssemblyStore(root: directory.file("data"), log: .silent)
        #expect(third.recordsReadAtOpen == 1, "the record read without its file got one")
    }
}
