/// The port through which a ``RunSession`` opens what it needs, and knows it is closed again when it is done.
///
/// Implementation requirements: `withPorts` opens (creating it where missing) the ledger of the state
/// directory, and the transport, signer and endpoint the manifest names (starting the embedded
/// service for `endpoint: embedded`), runs `body`, and closes all of it however `body` ends.
/// `ledgers` opens a state directory's ledger alone (read-only for a forecast, never created); as a
/// ``RemoteInputAccess`` it reaches a manifest's bucket or URLs.
package protocol RunAdapters: RemoteInputAccess {
    /// Computes MD5s for `--checksum` checks of outputs.
    var digester: any FileDigester { get }

    /// The ledgers of state directories, opened without the rest of the ports.
    var ledgers: any LedgerStore { get }

    func withPorts<T: Sendable>(for manifest: Manifest, stateDirectory: String,
                                _ body: (RunPorts) async throws -> T) async throws -> T
}
