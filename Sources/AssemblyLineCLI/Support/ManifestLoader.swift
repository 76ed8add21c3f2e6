import AssemblyLine
import Foundation
import YAMLReader

/// Reads a manifest file as every command does: parse, resolve paths against its directory, validate.
enum ManifestLoader {
    /// The validated manifest; throws a `YAMLError` or an ``InvalidManifest`` that lists every issue.
    static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Manifest {
        let source = try SourceText(contentsOfFile: path)
        let root = try YAMLReader.parse(source)
        let absolute = PathText.resolve(path, against: FileManager.default.currentDirectoryPath)
        do {
            return try ManifestDecoder(displayPath: path, absolutePath: absolute, environment: environment).decode(root)
        } catch {
            throw InvalidManifest(source: source, error: error)
        }
    }
}

/// A manifest that parsed but did not validate, with its text so that each issue can quote its line.
struct InvalidManifest: Error, Sendable, CustomStringConvertible {
    var source: SourceText
    var error: ConfigError

    /// Each issue as `FILE:LINE:COL: field: message`, its line and a caret, then a count.
    var description: String {
        let blocks = error.issues.map { issue in
            source.render(mark: issue.mark, message: issue.field.isEmpty ? issue.message : "\(issue.field): \(issue.message)")
        }
        let count = error.issues.count
        return blocks.joined(separator: "\n") + "\n\(count) error\(count == 1 ? "" : "s") in \(source.file)"
    }
}
