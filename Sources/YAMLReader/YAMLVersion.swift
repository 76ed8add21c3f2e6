import CYAML

extension YAMLReader {
    /// The libyaml this binary runs with, `libyaml X.Y.Z`, for `--version`.
    package static var libraryVersion: String { "libyaml " + String(cString: yaml_get_version_string()) }
}
