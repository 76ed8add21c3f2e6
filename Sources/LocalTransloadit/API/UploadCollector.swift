import AssemblyLine
import Digests
import Foundation
import HTTPMessages

/// A file part of a creating request, written to a temporary file as it arrived.
struct StagedFile: Sendable {
    var temporaryPath: String
    var field: String
    var filename: String
    var contentType: String?
    var size: Int64
    var md5hash: String
}

/// Receives a multipart body's parts: fields in memory (within a budget), each file streamed to a temporary file with its MD5.
///
/// `beforeFirstFile` runs when the first file part starts, with the fields seen so far, so that a
/// request that cannot be accepted is refused before its files are written.
final class UploadCollector: MultipartSink {
    private(set) var fields: [FormField] = []
    private(set) var files: [StagedFile] = []
    private var current: (writer: FileWriter, part: MultipartPart)?
    private let directory: String
    private let prefix: String
    /// The field bytes (names and values) still allowed.
    private var fieldBudget: Int
    var beforeFirstFile: (([FormField]) throws -> Void)?

    /// - Parameter fieldBudget: how many bytes of field names and values the body may still bring.
    init(directory: String, prefix: String, fieldBudget: Int) {
        self.directory = directory
        self.prefix = prefix
        self.fieldBudget = fieldBudget
    }

    func receiveField(_ field: FormField, part: MultipartPart) throws {
        fieldBudget -= field.name.utf8.count + field.value.utf8.count
        guard fieldBudget >= 0 else { throw APIError.fieldsTooLarge(limit: CreateAssemblyHandler.fieldsLimit) }
        fields.append(field)
    }

    func beginFile(_ part: MultipartPart) throws {
        if let check = beforeFirstFile {
            beforeFirstFile = nil
            try check(fields)
        }
        let path = "\(directory)/\(prefix)-\(files.count + 1)"
        current = (try FileWriter(path: path, hashing: .md5), part)
    }

    func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws {
        try current?.writer.write(chunk)
    }

    func endFile() throws {
        guard let (writer, part) = current else { return }
        current = nil
        let digest = try writer.finish()
        let filename = part.filename ?? ""
        if filename.isEmpty && writer.written == 0 {
            // a form's empty file input: no file was chosen
            unlink(writer.path)
            return
        }
        files.append(StagedFile(
            temporaryPath: writer.path, field: part.name, filename: filename.isEmpty ? part.name : filename,
            contentType: part.contentType, size: writer.written, md5hash: Hex.encode(digest)))
    }

    /// Deletes every temporary file, finished or not.
    func discardAll() {
        current?.writer.discard()
        current = nil
        for file in files {
            unlink(file.temporaryPath)
        }
        files = []
    }
}
