/// A configuration file as its decoder sees it: the name messages use, its absolute path, the environment.
///
/// Every decoder (manifest, signing policy, templates, fault plan) reads through
/// ``decode(_:)``: one reader collects every issue, and the value comes back only when there are none.
package struct ConfigSource: Sendable, Hashable {
    /// The file name used in messages, as the user gave it.
    package var displayPath: String
    /// The file's absolute path; relative paths inside it resolve against its directory.
    package var absolutePath: String
    /// What `${VAR}` reads.
    package var environment: [String: String]

    package init(displayPath: String, absolutePath: String, environment: [String: String]) {
        self.displayPath = displayPath
        self.absolutePath = absolutePath
        self.environment = environment
    }

    /// What `body` decodes with a fresh reader of this file, or every issue it reported.
    ///
    /// - Throws: ``ConfigError`` with every issue, each naming `file:line:column` and the field.
    package func decode<Value>(_ body: (ConfigReader) -> Value?) throws(ConfigError) -> Value {
        let reader = ConfigReader(file: displayPath, environment: environment)
        let value = body(reader)
        guard reader.issues.isEmpty, let value else { throw ConfigError(issues: reader.issues) }
        return value
    }
}
