/// The Auth Key and how long a signature lives.
public struct AuthSettings: Sendable, Hashable {
    /// The Auth Key; nil with the embedded endpoint, which makes one up.
    public var key: String?
    public var expiresIn: Duration
}

/// Which files are sent, and the directory their output paths are relative to.
public struct InputSettings: Sendable, Hashable {
    /// Patterns resolved against the manifest's directory.
    public var include: [GlobPattern]
    /// Patterns resolved against the manifest's directory.
    public var exclude: [GlobPattern]
    /// Absolute directory; outputs mirror input paths relative to it.
    public var base: String
}

/// The resize Step of a manifest: Transloadit's `/image/resize` parameters.
public struct ResizeSettings: Sendable, Hashable {
    /// How the image is fitted into the box (Transloadit's `resize_strategy`).
    public enum Strategy: String, Sendable, Hashable, CaseIterable {
        case fit, fillcrop, min_fit, pad, stretch, crop
    }

    /// Output formats the resize robot writes.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case jpg, png, webp, gif
    }

    public var width: Int?
    public var height: Int?
    public var strategy: Strategy
    public var format: Format?
    public var quality: Int?
    public var background: String?
    public var zoom: Bool
}

/// How much runs at once, across the whole run.
public struct ConcurrencyLimits: Sendable, Hashable {
    public var assemblies: Int
    public var uploads: Int
    public var downloads: Int
}

/// How files are uploaded.
public struct UploadSettings: Sendable, Hashable {
    /// multipart: files in the creation request; tus: resumable uploads after creation.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case multipart, tus
    }

    public var mode: Mode
    public var chunkSize: Int64
    /// tus: send `Upload-Checksum: sha1` with each chunk when the server takes it (costs a second read and a hash).
    public var checksums: Bool = true
}

/// Capped exponential backoff with jitter.
public struct RetrySettings: Sendable, Hashable {
    public var attempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
}

/// How Assembly status is polled.
public struct PollSettings: Sendable, Hashable {
    public var interval: Duration
    public var maxInterval: Duration
    public var timeout: Duration
}

/// The governor's pace, below the account's limits.
public struct RateLimits: Sendable, Hashable {
    public var creationsPerMinute: Int
    public var statusRequestsPerSecond: Int
}

/// Where results are written.
public struct OutputSettings: Sendable, Hashable {
    /// Absolute directory.
    public var dir: String
    public var layout: OutputLayout
}
