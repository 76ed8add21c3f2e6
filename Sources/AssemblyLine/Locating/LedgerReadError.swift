/// Why the ledgers a read names cannot answer it: none where one was expected, or a batch they do not hold as one.
package enum LedgerReadError: Error, Sendable, Hashable {
    /// No ledger where one was expected (`path` says where, as `at /x/ledger.sqlite`); `hint` says what to do about it.
    case noLedger(path: String, hint: String)
    /// The ledgers a batch's report or check read do not hold the batch as one: no run of it, a part in two
    /// ledgers, or parts of different splits.
    case invalidBatch(String)
}
