@testable import AssemblyLine
import ConfigFormat
import TestSupport
import YAMLReader

/// Decodes manifest text as the CLI does, with the manifest at `/jobs/m.yaml`.
func decodeManifest(_ yaml: String, environment: [String: String] = [:]) throws -> Manifest {
    let node = try YAMLReader.parse(yaml, file: "m.yaml")
    return try ManifestDecoder(displayPath: "m.yaml", absolutePath: "/jobs/m.yaml", environment: environment).decode(node)
}

/// The issues a manifest text gives, one line each, or an empty list when it is valid.
func manifestIssues(_ yaml: String, environment: [String: String] = [:]) throws -> [String] {
    try configIssues { _ = try decodeManifest(yaml, environment: environment) }
}

/// A valid manifest's lines, to which a case adds or replaces lines.
let minimalManifest = """
    version: 1
    name: thumbs
    inputs:
      include: "in/**/*.jpg"
    resize:
      width: 100
      height: 100

    """
