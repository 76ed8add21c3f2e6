/// Which state directories a command means: one named, a manifest's (each part's, when its `state_dir`
/// names `{partition}`), or none named, where a run ID is looked up in the run index.
package enum LedgerScope: Sendable {
    /// `--state-dir DIR`, absolute.
    case stateDirectory(String)
    /// `--manifest FILE`: its state directory, or every part's.
    case manifest(Manifest)
    /// Neither: the default state directory (absolute), else where the run index says a run is.
    case unnamed(defaultDirectory: String, index: RunIndex)
}
