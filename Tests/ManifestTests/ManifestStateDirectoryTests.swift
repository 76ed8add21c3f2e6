import AssemblyLine
import Testing

/// A manifest run from another state directory (`--state-dir`) takes its default output along, not one it names (even where
/// the default would be).
@Suite struct ManifestStateDirectoryTests {
    @Test(arguments: [
        ("", "/var/lib/assemblyline/nightly", "/var/lib/assemblyline/nightly/output"),
        ("state_dir: ../runs\n", "/var/lib/assemblyline/nightly/", "/var/lib/assemblyline/nightly/output"),
        ("output: {dir: runs/output}\n", "/var/lib/assemblyline/nightly", "/jobs/runs/output"),
        ("output: {dir: /srv/thumbs}\n", "/var/lib/assemblyline/nightly", "/srv/thumbs"),
        ("", "/jobs/runs", "/jobs/runs/output"),
    ])
    func theDefaultOutputFollowsTheStateDirectoryAndANamedOneStays(lines: String, directory: String, output: String) throws {
        let manifest = try decodeManifest(minimalManifest + lines).inStateDirectory(directory)
        #expect(manifest.stateDir == "/var/lib/assemblyline/nightly" || directory == "/jobs/runs")
        #expect(manifest.output.dir == output)
    }
}
