package import ConfigFormat
import Foundation

/// What the repository keeps beside a Template file: the account's Template ID and the hash of its content as of the
/// last `templates pull` or `push`, so that a push knows whether the account changed since (no last writer wins).
///
/// It lives at `<file>.sync` (``path(of:)``), committed with the file: a push from a workstation and a pull on the batch
/// host then agree on what the account held. Its text is JSON with its keys in a fixed order.
package struct TemplateSyncMark: Sendable, Hashable {
    package var templateID: String
    /// The lowercase hex SHA-256 of the account's Template as a file holds it (``TemplateDocument/text``).
    package var accountSHA256: String

    package init(templateID: String, accountSHA256: String) {
        self.templateID = templateID
        self.accountSHA256 = accountSHA256
    }

    /// Where the mark of the Template file at `file` lives.
    package static func path(of file: String) -> String {
        file + ".sync"
    }

    /// The mark beside the file at `file`; nil when there is none.
    ///
    /// - Throws: ``TemplateFileError`` for a mark that is not as ``text`` writes it.
    package static func read(besideFile file: String, displayPath: String) throws(TemplateFileError) -> TemplateSyncMark? {
        guard let data = FileManager.default.contents(atPath: path(of: file)) else { return nil }
        let place = path(of: displayPath)
        guard let members = (try? JSONValue(parsing: Array(data)))?.objectValue,
              case .string(let id)? = members["template_id"], case .string(let hash)? = members["account_sha256"],
              hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
            throw TemplateFileError(file: place, message: "expected {\"template_id\": ..., \"account_sha256\": ...} as `templates pull` writes it")
        }
        return TemplateSyncMark(templateID: id, accountSHA256: hash)
    }

    /// The mark's text.
    package var text: String {
        JSONValue.indentedObject([(key: "template_id", value: .string(templateID)), (key: "account_sha256", value: .string(accountSHA256))])
    }
}
