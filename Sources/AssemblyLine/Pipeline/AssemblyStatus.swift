import Foundation

/// The parts of an Assembly Status JSON the orchestrator acts on (transloadit-api.md §3).
package struct AssemblyStatus: Sendable, Hashable, Decodable {
    /// The state code: `ASSEMBLY_UPLOADING`, `ASSEMBLY_EXECUTING`, `ASSEMBLY_COMPLETED`, ...; nil on errors.
    package var ok: String?
    /// The error code when the Assembly, or the request, ended in error.
    package var error: String?
    package var message: String?
    package var reason: String?
    /// On an execution error, the upload (its `id`) whose processing failed, when the service says.
    package var failedOriginalID: String?
    package var assemblyID: String?
    package var assemblyURL: String?
    package var assemblySSLURL: String?
    package var tusURL: String?
    package var uploads: [AssemblyFile]
    /// Result files by step name.
    package var results: [String: [AssemblyFile]]
    /// Seconds to wait, on rate-limit answers.
    package var retryIn: Double?

    enum CodingKeys: String, CodingKey {
        case ok, error, message, reason, uploads, results, info
        case failedOriginalID = "original_id"
        case assemblyID = "assembly_id"
        case assemblyURL = "assembly_url"
        case assemblySSLURL = "assembly_ssl_url"
        case tusURL = "tus_url"
    }

    enum InfoKeys: String, CodingKey {
        case retryIn
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ok = try? container.decodeIfPresent(String.self, forKey: .ok)
        error = try? container.decodeIfPresent(String.self, forKey: .error)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        failedOriginalID = try? container.decodeIfPresent(String.self, forKey: .failedOriginalID)
        assemblyID = try? container.decodeIfPresent(String.self, forKey: .assemblyID)
        assemblyURL = try? container.decodeIfPresent(String.self, forKey: .assemblyURL)
        assemblySSLURL = try? container.decodeIfPresent(String.self, forKey: .assemblySSLURL)
        tusURL = try? container.decodeIfPresent(String.self, forKey: .tusURL)
        uploads = (try? container.decodeIfPresent([AssemblyFile].self, forKey: .uploads)) ?? []
        results = (try? container.decodeIfPresent([String: [AssemblyFile]].self, forKey: .results)) ?? [:]
        let info = try? container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        retryIn = try? info?.decodeIfPresent(Double.self, forKey: .retryIn)
    }

    /// Decodes a status body; nil when it is not a JSON object.
    package static func decode(_ body: [UInt8]) -> AssemblyStatus? {
        try? JSONDecoder().decode(AssemblyStatus.self, from: Data(body))
    }

    /// True while the Assembly still runs: uploading, executing or replaying.
    package var isRunning: Bool {
        error == nil && ["ASSEMBLY_UPLOADING", "ASSEMBLY_EXECUTING", "ASSEMBLY_REPLAYING"].contains(ok ?? "")
    }

    /// True when it completed without error.
    package var isCompleted: Bool { error == nil && ok == "ASSEMBLY_COMPLETED" }

    /// The URL to poll and to name in tus metadata: the ssl URL, else the plain one.
    package var statusURL: String? { assemblySSLURL ?? assemblyURL }
}

/// One file of an Assembly: an upload or a result (transloadit-api.md §3.2).
package struct AssemblyFile: Sendable, Hashable, Decodable {
    package var id: String
    package var name: String?
    package var ext: String?
    package var size: Int64?
    package var mime: String?
    package var field: String?
    package var md5hash: String?
    package var originalID: String?
    package var url: String?
    package var sslURL: String?
    package var width: Int?
    package var height: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, ext, size, mime, field, md5hash, url, meta
        case originalID = "original_id"
        case sslURL = "ssl_url"
    }

    enum MetaKeys: String, CodingKey {
        case width, height
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        ext = try? container.decodeIfPresent(String.self, forKey: .ext)
        size = try? container.decodeIfPresent(Int64.self, forKey: .size)
        mime = try? container.decodeIfPresent(String.self, forKey: .mime)
        field = try? container.decodeIfPresent(String.self, forKey: .field)
        md5hash = try? container.decodeIfPresent(String.self, forKey: .md5hash)
        originalID = try? container.decodeIfPresent(String.self, forKey: .originalID)
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        sslURL = try? container.decodeIfPresent(String.self, forKey: .sslURL)
        let meta = try? container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        width = try? meta?.decodeIfPresent(Int.self, forKey: .width)
        height = try? meta?.decodeIfPresent(Int.self, forKey: .height)
    }

    /// Where to download it: the ssl URL, else the plain one.
    package var downloadURL: String? { sslURL ?? url }
}
