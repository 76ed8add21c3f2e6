import AssemblyLine
import ConfigFormat
import LocalTransloadit
import YAMLReader

/// Reads `serve --template-credentials FILE`: the named S3-compatible buckets and keys the service's account holds.
///
/// The file holds secrets, so it is read as one (``SecretReader``: a regular file of at most 64 KiB that neither its
/// group nor others may access), then parsed (JSON, or YAML) and decoded strictly (``TemplateCredential``): unknown
/// keys and missing or malformed fields are errors naming the file, line, column and field. No error quotes a line
/// of it, since a line may hold a secret.
enum TemplateCredentialsFile {
    static func load(_ path: String, environment: [String: String]) throws -> [String: TemplateCredential] {
        let text: String
        do {
            text = try SecretReader(environment: environment).read(.file(path))
        } catch {
            throw CommandError.secretUnusable(file: path, reason: error.description)
        }
        let root: ConfigNode
        do {
            root = try YAMLReader.parse(text, file: path)
        } catch {
            throw error.unquoted
        }
        do {
            return try TemplateCredential.decodeAll(root, file: path, environment: environment)
        } catch {
            throw InvalidConfigFile(source: SourceText(file: path, text: text), error: error, quotesLines: false)
        }
    }
}
