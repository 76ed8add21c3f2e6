/// The port through which a ``RunSession`` opens what it needs, and knows it is closed again when it is done.
///
/// Implementation requirements: `withPorts` opens (creating it where missing) the ledger of the state
/// directory, and the transport, signer and endpoint the manifest names (starting the embedded
/// service for `endpoint: embedded`), runs `body`, and closes all of it however `body` ends.
/// `withExistingLedger` opens the state directory's ledger read-only, or gives nil where there is none,
/// and never creates one.
package protocol RunAdapters: Sendable {
    /// Computes MD5s for `--checksum` checks of outputs.
    var digester: any FileDigester { get }

    func withPorts<T: Sendable>(for manifest: Manifest, stateDirectory: String,
                                _ body: (RunPorts) async throws -> T) async throws -> T

    func withExistingLedger<T: Sendable>(in stateDirectory: String, _ body: ((any RunLedger)?) async throws -> T) async throws -> T

    /// Whether the state directory holds a ledger (a run of it was recorded before).
    func hasLedger(in stateDirectory: String) -> Bool
}
