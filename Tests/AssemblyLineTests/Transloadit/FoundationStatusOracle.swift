@testable import AssemblyLine
import Foundation

/// Foundation's `JSONDecoder` reading of a status, as `AssemblyStatus` read one through `Decodable` before it read
/// in one pass: kept only here, as the oracle ``StatusReadingTests`` compare the one-pass reading with.
struct FoundationStatus: Decodable {
    let status: AssemblyStatus

    static func decode(_ body: [UInt8]) -> AssemblyStatus? {
        (try? JSONDecoder().decode(Self.self, from: Data(body)))?.status
    }

    enum CodingKeys: String, CodingKey {
        case ok, error, message, reason, retryable, uploads, results, info
        case failedOriginalID = "original_id"
        case assemblyID = "assembly_id"
        case assemblyURL = "assembly_url"
        case assemblySSLURL = "assembly_ssl_url"
        case tusURL = "tus_url"
        case updateStreamURL = "update_stream_url"
        case websocketURL = "websocket_url"
        case tusUploads = "tus_uploads"
        case expectedTusUploads = "expected_tus_uploads"
        case finishedTusUploads = "finished_tus_uploads"
        case bytesUsage = "bytes_usage"
        case queueDuration = "queue_duration"
        case executionDuration = "execution_duration"
        case parentID = "parent_id"
        case parentStatus = "parent_assembly_status"
    }

    enum ParentKeys: String, CodingKey {
        case assemblyID = "assembly_id"
    }

    enum InfoKeys: String, CodingKey {
        case retryIn
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var status = AssemblyStatus()
        status.ok = (try? container.decodeIfPresent(String.self, forKey: .ok)).flatMap { $0 }.map(AssemblyState.init(code:))
        status.error = (try? container.decodeIfPresent(String.self, forKey: .error)).flatMap { $0 }
            .map { FailureCode(rawValue: RemoteText.escaped($0, limit: RemoteText.nameLimit)) }
        status.message = (try? container.decodeIfPresent(String.self, forKey: .message)).flatMap { $0 }
            .map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
        status.reason = (try? container.decodeIfPresent(String.self, forKey: .reason)).flatMap { $0 }
            .map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
        status.retryable = try? container.decodeIfPresent(Bool.self, forKey: .retryable)
        status.failedOriginalID = (try? container.decodeIfPresent(String.self, forKey: .failedOriginalID))
            ?? (try? container.decodeIfPresent([String].self, forKey: .failedOriginalID)).flatMap { $0.count == 1 ? $0.first : nil }
        status.assemblyID = try? container.decodeIfPresent(String.self, forKey: .assemblyID)
        status.assemblyURL = try? container.decodeIfPresent(String.self, forKey: .assemblyURL)
        status.assemblySSLURL = try? container.decodeIfPresent(String.self, forKey: .assemblySSLURL)
        status.tusURL = try? container.decodeIfPresent(String.self, forKey: .tusURL)
        status.updateStreamURL = try? container.decodeIfPresent(String.self, forKey: .updateStreamURL)
        status.websocketURL = try? container.decodeIfPresent(String.self, forKey: .websocketURL)
        status.parentID = (try? container.decodeIfPresent(String.self, forKey: .parentID)).flatMap { $0 }
            ?? (try? container.nestedContainer(keyedBy: ParentKeys.self, forKey: .parentStatus).decodeIfPresent(String.self, forKey: .assemblyID))
                .flatMap { $0 }
        let uploadEntries = try? container.decodeIfPresent(EntryList.self, forKey: .uploads)
        status.uploads = uploadEntries?.files ?? []
        var unreadable = uploadEntries?.unreadable ?? 0
        if let steps = try? container.nestedContainer(keyedBy: StepName.self, forKey: .results) {
            for step in steps.allKeys {
                guard let entries = try? steps.decode(EntryList.self, forKey: step) else {
                    unreadable += 1
                    continue
                }
                status.results[RemoteText.escaped(step.stringValue, limit: RemoteText.nameLimit), default: []] += entries.files
                unreadable += entries.unreadable
            }
        }
        status.unreadableEntries = unreadable
        status.tusUploads = (try? container.decodeIfPresent([Lenient<FoundationTusUpload>].self, forKey: .tusUploads))?
            .compactMap(\.value?.upload) ?? []
        status.expectedTusUploads = try? container.decodeIfPresent(Int.self, forKey: .expectedTusUploads)
        status.finishedTusUploads = try? container.decodeIfPresent(Int.self, forKey: .finishedTusUploads)
        let info = try? container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        status.retryIn = try? info?.decodeIfPresent(Double.self, forKey: .retryIn)
        status.usage = AssemblyUsage(bytes: AssemblyUsage.bytes(try? container.decodeIfPresent(Double.self, forKey: .bytesUsage)),
                                     queueSeconds: AssemblyUsage.seconds(try? container.decodeIfPresent(Double.self, forKey: .queueDuration)),
                                     executionSeconds: AssemblyUsage.seconds(try? container.decodeIfPresent(Double.self, forKey: .executionDuration)))
        self.status = status
    }

    /// A step's name, as a key of `results`.
    struct StepName: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// One entry of a list that reads as nil when it is not a `Value`, so that the list reads on.
    struct Lenient<Value: Decodable>: Decodable {
        let value: Value?
        init(from decoder: any Decoder) {
            value = try? Value(from: decoder)
        }
    }

    /// A list of files read entry by entry: an entry that is not a file is counted and skipped.
    struct EntryList: Decodable {
        let files: [AssemblyFile]
        let unreadable: Int

        init(from decoder: any Decoder) throws {
            let entries = try [Lenient<FoundationFile>](from: decoder)
            files = entries.compactMap(\.value?.file)
            unreadable = entries.count - files.count
        }
    }
}

/// Foundation's reading of one file of a status (``FoundationStatus``).
struct FoundationFile: Decodable {
    let file: AssemblyFile

    enum CodingKeys: String, CodingKey {
        case id, name, ext, size, mime, field, md5hash, url, meta
        case originalID = "original_id"
        case originalPath = "original_path"
        case importURL = "import_url"
        case sslURL = "ssl_url"
        case isTemporaryURL = "is_temp_url"
    }

    enum MetaKeys: String, CodingKey {
        case width, height
        case importURL = "import_url"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var file = AssemblyFile()
        file.id = Self.text(container, .id)
        file.name = Self.text(container, .name)
        file.ext = Self.text(container, .ext)
        file.size = (try? container.decodeIfPresent(Int64.self, forKey: .size)).flatMap { $0 >= 0 ? $0 : nil }
        file.mime = Self.text(container, .mime)
        file.field = try? container.decodeIfPresent(String.self, forKey: .field)
        file.md5hash = try? container.decodeIfPresent(String.self, forKey: .md5hash)
        if let one = try? container.decodeIfPresent(String.self, forKey: .originalID) {
            file.originalIDs = [one]
        } else {
            file.originalIDs = (try? container.decodeIfPresent([String?].self, forKey: .originalID))?.compactMap { $0 } ?? []
        }
        file.url = try? container.decodeIfPresent(String.self, forKey: .url)
        file.sslURL = try? container.decodeIfPresent(String.self, forKey: .sslURL)
        file.isTemporaryURL = try? container.decodeIfPresent(Bool.self, forKey: .isTemporaryURL)
        let meta = try? container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        file.width = try? meta?.decodeIfPresent(Int.self, forKey: .width)
        file.height = try? meta?.decodeIfPresent(Int.self, forKey: .height)
        file.importURL = (try? meta?.decodeIfPresent(String.self, forKey: .importURL)) ?? (try? container.decodeIfPresent(String.self, forKey: .importURL))
        file.originalPath = try? container.decodeIfPresent(String.self, forKey: .originalPath)
        self.file = file
    }

    private static func text(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> String? {
        (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0 }.map { RemoteText.escaped($0, limit: RemoteText.nameLimit) }
    }
}

/// Foundation's reading of one `tus_uploads` entry (``FoundationStatus``).
struct FoundationTusUpload: Decodable {
    let upload: AssemblyTusUpload

    enum CodingKeys: String, CodingKey {
        case fieldname, filename, size, finished
        case uploadURL = "upload_url"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var upload = AssemblyTusUpload()
        upload.fieldname = try? container.decodeIfPresent(String.self, forKey: .fieldname)
        upload.filename = try? container.decodeIfPresent(String.self, forKey: .filename)
        upload.size = try? container.decodeIfPresent(Int64.self, forKey: .size)
        upload.finished = (try? container.decodeIfPresent(Bool.self, forKey: .finished)) ?? false
        upload.uploadURL = try? container.decodeIfPresent(String.self, forKey: .uploadURL)
        self.upload = upload
    }
}

/// Foundation's reading of an `assembly_result_finished` payload, `["step", {result}]` (``AssemblyUpdate``).
struct FoundationStepResult: Decodable {
    let step: String
    let file: AssemblyFile

    static func decode(_ data: String) -> FoundationStepResult? {
        try? JSONDecoder().decode(Self.self, from: Data(data.utf8))
    }

    init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        step = try pair.decode(String.self)
        file = try pair.decode(FoundationFile.self).file
    }
}
