extension Manifest {
    /// The manifest as run from the state directory `directory` (absolute: `--state-dir`, or where a resumed run's
    /// ledger is) instead of its `state_dir`: the ledger, the locks and the embedded service's files go there, and
    /// so do the outputs when the manifest names no `output.dir` (``OutputSettings/followsStateDir``), which a
    /// deployment that gives the state directory relies on (the systemd unit's `--state-dir
    /// /var/lib/assemblyline/<instance>`). An `output.dir` the manifest names stays where it is.
    package func inStateDirectory(_ directory: String) -> Manifest {
        let moved = PathText.resolve(directory, against: "/")
        guard moved != stateDir else { return self }
        var manifest = self
        if output.followsStateDir {
            manifest.jobOutputDir = jobOutputDir ?? output.dir
            manifest.output.dir = PathText.resolve(ManifestDefaults.outputDir, against: moved)
        }
        manifest.stateDir = moved
        return manifest
    }
}
