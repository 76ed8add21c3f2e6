package import ConfigFormat
import Foundation

extension TemplateDocument {
    /// Reads the Template file at `path` (`displayPath` as the manifest names it): strict JSON, an object with `steps`.
    ///
    /// - Throws: ``TemplateFileError`` naming the place: line and column of a syntax error, else the member.
    package static func read(_ path: String, displayPath: String) throws(TemplateFileError) -> TemplateDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw TemplateFileError(file: displayPath, message: "\(reason); `assemblyline templates pull` writes it from the account's Template")
        }
        let bytes = Array(data)
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            let (line, column) = Self.place(of: error.offset, in: bytes)
            throw TemplateFileError(file: displayPath, line: line, column: column, message: "expected a Template as JSON: \(error.message)")
        }
        return try TemplateDocument(json, file: displayPath)
    }

    /// The Template a file's JSON holds.
    ///
    /// - Throws: ``TemplateFileError`` for a member that is not as the API takes it, or a key the account changes by itself.
    package init(_ json: JSONValue, file: String) throws(TemplateFileError) {
        guard var members = json.objectValue else {
            throw TemplateFileError(file: file, message: "expected an object with steps, such as {\"steps\": {\"resize\": {\"robot\": \"/image/resize\", ...}}}")
        }
        if let volatile = Self.volatileKeys.first(where: { members[$0] != nil }) {
            throw TemplateFileError(file: file, field: volatile, message: "the account sets it by itself (or the manifest holds it, for id); "
                + "expected the content's keys, name and require_signature_auth only")
        }
        var name: String?
        if let value = members.removeValue(forKey: "name") {
            guard case .string(let text) = value else { throw TemplateFileError(file: file, field: "name", message: "expected a string") }
            name = text
        }
        var requireSignatureAuth = false
        if let value = members.removeValue(forKey: "require_signature_auth") {
            switch value {
            case .bool(let flag): requireSignatureAuth = flag
            case .integer(0), .integer(1): requireSignatureAuth = value == .integer(1)
            default: throw TemplateFileError(file: file, field: "require_signature_auth", message: "expected 0 or 1")
            }
        }
        try Self.checkSteps(members["steps"], file: file)
        self.init(name: name, requireSignatureAuth: requireSignatureAuth, content: members)
    }

    /// Throws unless `steps` is an object of Steps, each an object with a robot such as `/image/resize`.
    private static func checkSteps(_ steps: JSONValue?, file: String) throws(TemplateFileError) {
        guard let steps = steps?.objectValue, !steps.isEmpty else {
            throw TemplateFileError(file: file, field: "steps", message: "expected an object of Step names to Steps, each with a robot")
        }
        for (name, step) in steps.sorted(by: { $0.key < $1.key }) {
            guard let options = step.objectValue else {
                throw TemplateFileError(file: file, field: "steps.\(name)", message: "expected a Step: an object with robot (such as /image/resize) and its options")
            }
            guard case .string(let robot)? = options["robot"], robot.hasPrefix("/") else {
                throw TemplateFileError(file: file, field: "steps.\(name).robot", message: "expected a robot name such as /image/resize")
            }
        }
    }

    /// The 1-based line and column of the byte at `offset`.
    private static func place(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes.prefix(min(offset, bytes.count))
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }
}
