import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// A ledger is known by its `application_id`; any other file is refused and left as it was.
@Suite struct LedgerRecognitionTests {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aNewLedgerCarriesTheApplicationID() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        await ledger.close()
        let id = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly).pragmaValue("application_id")
        #expect(id == String(SQLiteLedger.applicationID))
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() async throws {
        let directory = try TemporaryDirectory()
        try SQLiteConnection(path: directory.ledgerPath).execute("CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1)")
        let before = Self.bytes(directory.ledgerPath)
        for mode in [SQLiteConnection.Mode.readWrite, .readOnly] {
            let error = await #expect(throws: SQLiteError.self) { try await SQLiteLedger.open(path: directory.ledgerPath, mode: mode) }
            #expect(error?.kind == .notALedger)
            #expect(error?.description == "\(directory.ledgerPath): not an AssemblyLine ledger (tables photos); left untouched")
        }
        #expect(Self.bytes(directory.ledgerPath) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.ledgerPath + "-wal"))
    }

    @Test func aFileThatIsNoDatabaseIsRefusedUntouched() async throws {
        let directory = try TemporaryDirectory()
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: directory.ledgerPath))
        let before = Self.bytes(directory.ledgerPath)
        let error = await #expect(throws: SQLiteError.self) { try await SQLiteLedger.open(path: directory.ledgerPath) }
        #expect(error?.description == "\(directory.ledgerPath): not an AssemblyLine ledger (not an SQLite database); left untouched")
        #expect(Self.bytes(directory.ledgerPath) == before)
    }

    @Test func anEmptyFileBecomesALedgerButIsNoneToRead() async throws {
        let directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.ledgerPath, contents: Data()))
        let error = await #expect(throws: SQLiteError.self) { try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly) }
        #expect(error?.description == "\(directory.ledgerPath): not an AssemblyLine ledger (an empty database); left untouched")
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        #expect(try await ledger.recentRuns(limit: 1).isEmpty)
        await ledger.close()
    }

    @Test func aLedgerFromBeforeTheIDIsKnownByItsMigrationsAndStamped() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        await ledger.close()
        try SQLiteConnection(path: directory.ledgerPath).execute("PRAGMA application_id = 0")
        let reader = try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        await reader.close()
        let again = try await SQLiteLedger.open(path: directory.ledgerPath)
        await again.close()
        #expect(try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly).pragmaValue("application_id") == String(SQLiteLedger.applicationID))
    }
}
