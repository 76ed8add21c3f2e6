/// A ledger opened read-only, with the state directory it is in: one of the several a batch's or a history's report reads.
package struct OpenedLedger: Sendable {
    package var ledger: any LedgerQueries
    package var stateDirectory: String

    package init(_ ledger: any LedgerQueries, stateDirectory: String) {
        self.ledger = ledger
        self.stateDirectory = stateDirectory
    }
}
