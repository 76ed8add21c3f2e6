import AssemblyLine
import Foundation
import YAMLReader

/// Reads a sign-server policy file as a manifest is read: parse, resolve paths against its directory, validate.
enum PolicyLoader {
    /// The validated policy; throws a `YAMLError` or an ``InvalidManifest`` (the shared rendering of a
    /// configuration file's issues) that lists every issue with its line.
    static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SigningPolicy {
        let source = try SourceText(contentsOfFile: path)
        let root = try YAMLReader.parse(source)
        let absolute = PathText.resolve(path, against: FileManager.default.currentDirectoryPath)
        do {
            return try SigningPolicyDecoder(displayPath: path, absolutePath: absolute, environment: environment).decode(root)
        } catch {
            throw InvalidManifest(source: source, error: error)
        }
    }
}
