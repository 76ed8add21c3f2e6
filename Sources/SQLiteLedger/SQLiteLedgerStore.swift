package import AssemblyLine
import Foundation

/// The ledgers of state directories as SQLite files (`<state_dir>/ledger.sqlite`): the ``LedgerStore`` the CLI wires.
package struct SQLiteLedgerStore: LedgerStore {
    /// Called with the SQL text of each statement every ledger opened here runs (``SQLiteLedger/traceStatements(_:)``); nil for none.
    private let trace: (@Sendable (String) -> Void)?

    package init(trace: (@Sendable (String) -> Void)? = nil) {
        self.trace = trace
    }

    package func ledgerPath(inStateDirectory directory: String) -> String {
        SQLiteLedger.path(inStateDirectory: directory)
    }

    package func hasLedger(in stateDirectory: String) -> Bool {
        FileManager.default.fileExists(atPath: ledgerPath(inStateDirectory: stateDirectory))
    }

    package func withLedger<T: Sendable>(in stateDirectory: String, _ body: (any RunLedger) async throws -> T) async throws -> T {
        try await SQLiteLedger.with(stateDirectory: stateDirectory) { ledger in
            try await traced(ledger)
            return try await body(ledger)
        }
    }

    package func withExistingLedger<T: Sendable>(in stateDirectory: String, _ body: ((any LedgerQueries)?) async throws -> T) async throws -> T {
        guard hasLedger(in: stateDirectory) else { return try await body(nil) }
        return try await SQLiteLedger.with(stateDirectory: stateDirectory, mode: .readOnly) { ledger in
            try await traced(ledger)
            return try await body(ledger)
        }
    }

    private func traced(_ ledger: SQLiteLedger) async throws {
        if let trace { try await ledger.traceStatements(trace) }
    }
}
