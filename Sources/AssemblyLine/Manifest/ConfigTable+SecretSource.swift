import ConfigFormat

extension ConfigTable {
    /// Exactly one of `<prefix>_env` (a variable's name) and `<prefix>_file` (a path, resolved against `directory`).
    ///
    /// Manifests and signing policies name their secrets and tokens this way; the value itself never
    /// sits in the file.
    package func secretSource(prefix: String, relativeTo directory: String) -> SecretSource? {
        let envKey = "\(prefix)_env", fileKey = "\(prefix)_file"
        switch (has(envKey), has(fileKey)) {
        case (true, true):
            report(fileKey, "\(envKey) and \(fileKey) are mutually exclusive; expected exactly one")
            return nil
        case (false, false):
            reportMissing(envKey, expected: "\(envKey) (an environment variable's name) or \(fileKey) (a file's path)")
            return nil
        case (true, false):
            return string(envKey).map { .environment($0) }
        case (false, true):
            return string(fileKey).map { .file(PathText.resolve($0, against: directory)) }
        }
    }
}
