/// The port through which the use cases open the ledger of a state directory, and know it is closed when they are done.
///
/// Implementation requirements: `withLedger` opens the state directory's ledger for writing (creating
/// it and its directory where missing, migrating an older one), runs `body` and closes it however `body`
/// ends; `withExistingLedger` opens it read-only, or gives nil where there is none, and never creates
/// or changes one.
package protocol LedgerStore: Sendable {
    /// The ledger file of a state directory, for messages: `<state_dir>/ledger.sqlite`.
    func ledgerPath(inStateDirectory directory: String) -> String

    /// Whether the state directory holds a ledger (a run of it was recorded before).
    func hasLedger(in stateDirectory: String) -> Bool

    func withLedger<T: Sendable>(in stateDirectory: String, _ body: (any RunLedger) async throws -> T) async throws -> T

    func withExistingLedger<T: Sendable>(in stateDirectory: String, _ body: ((any LedgerQueries)?) async throws -> T) async throws -> T
}
