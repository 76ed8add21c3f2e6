import AssemblyLine
import ConfigFormat
import Foundation
import SignServer
import YAMLReader

/// Reads every configuration file the same way: parse the YAML (or JSON), decode, and on failure keep the
/// text so that each issue can quote its line. Manifests, sign-server policies, templates and fault plans.
enum ConfigFileLoader {
    /// The decoded value; throws a `YAMLError` or an ``InvalidConfigFile`` listing every issue.
    ///
    /// `decode` gets the parsed tree and the file's absolute path, against whose directory relative
    /// paths inside it resolve.
    static func load<Value>(_ path: String, _ decode: (ConfigNode, String) throws(ConfigError) -> Value) throws -> Value {
        let source = try SourceText(contentsOfFile: path)
        let root = try YAMLReader.parse(source)
        let absolute = PathText.resolve(path, against: FileManager.default.currentDirectoryPath)
        do {
            return try decode(root, absolute)
        } catch {
            throw InvalidConfigFile(source: source, error: error)
        }
    }

    /// A job manifest, validated; with `templateFileMayBeMissing`, a Template file not written yet stands for an empty one.
    static func manifest(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                         templateFileMayBeMissing: Bool = false) throws -> Manifest {
        try load(path) { (root, absolute) throws(ConfigError) in
            var decoder = ManifestDecoder(displayPath: path, absolutePath: absolute, environment: environment)
            decoder.templateFileMayBeMissing = templateFileMayBeMissing
            return try decoder.decode(root)
        }
    }

    /// A sign-server policy, validated.
    static func policy(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SigningPolicy {
        try load(path) { (root, absolute) throws(ConfigError) in
            try SigningPolicyDecoder(displayPath: path, absolutePath: absolute, environment: environment).decode(root)
        }
    }
}
