/// The Auth Key and how long a signature lives.
package struct AuthSettings: Sendable, Hashable {
    /// The Auth Key; nil with the embedded endpoint, which makes one up.
    package var key: String?
    package var expiresIn: Duration
}

/// Which files are sent, and the directory their output paths are relative to.
package struct InputSettings: Sendable, Hashable {
    /// Patterns resolved against the manifest's directory.
    package var include: [GlobPattern]
    /// Patterns resolved against the manifest's directory.
    package var exclude: [GlobPattern]
    /// Absolute directory; outputs mirror input paths relative to it. With ``bucket``, the virtual directory of its prefix.
    package var base: String
    /// `inputs.s3`: the inputs are the keys of a bucket, matched by the globs under its prefix, and imported by the service.
    package var bucket: BucketInputSettings?
    /// `inputs.urls`: the inputs are the rows of a list of URLs, matched by the globs (every row without any), and imported by the service.
    package var urlList: URLListSettings?
}

/// The resize Step of a manifest: Transloadit's `/image/resize` parameters.
package struct ResizeSettings: Sendable, Hashable {
    /// How the image is fitted into the box (Transloadit's `resize_strategy`).
    package enum Strategy: String, Sendable, Hashable, CaseIterable {
        case fit, fillcrop, min_fit, pad, stretch, crop
    }

    /// Output formats the resize robot writes.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        case jpg, png, webp, gif

        /// Other names a manifest may give a format: `jpeg` is read as `jpg`, which is what is sent and what `{ext}` becomes.
        static let aliases: [String: Format] = ["jpeg": .jpg]
    }

    package var width: Int?
    package var height: Int?
    package var strategy: Strategy
    package var format: Format?
    package var quality: Int?
    package var background: String?
    package var zoom: Bool
}

/// How much runs at once, across the whole run.
package struct ConcurrencyLimits: Sendable, Hashable {
    package var assemblies: Int
    package var uploads: Int
    package var downloads: Int
}

/// How files are uploaded.
package struct UploadSettings: Sendable, Hashable {
    /// multipart: files in the creation request; tus: resumable uploads after creation.
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        case multipart, tus
    }

    package var mode: Mode
    package var chunkSize: Int64
    /// tus: send `Upload-Checksum: sha1` with each chunk when the server takes it (costs a second read and a hash).
    package var checksums: Bool = true
}

/// Capped exponential backoff with jitter.
package struct RetrySettings: Sendable, Hashable {
    package var attempts: Int
    package var baseDelay: Duration
    package var maxDelay: Duration
}

/// How Assembly status is polled, and whether the change stream wakes the polls.
package struct PollSettings: Sendable, Hashable {
    package var interval: Duration
    package var maxInterval: Duration
    package var timeout: Duration
    /// Follow each running Assembly's change stream (`poll.stream`); off where a proxy holds event streams back.
    package var stream: Bool

    package init(interval: Duration, maxInterval: Duration, timeout: Duration, stream: Bool = true) {
        self.interval = interval
        self.maxInterval = maxInterval
        self.timeout = timeout
        self.stream = stream
    }
}

/// The governor's pace, below the account's limits.
package struct RateLimits: Sendable, Hashable {
    package var creationsPerMinute: Int
    package var statusRequestsPerSecond: Int
    /// How a partition of a batch takes the account's budget (``Manifest/partitioned(_:)``).
    package var partitionShare: PartitionShare = .split
    /// Whether the manifest sets `limits.creations_per_minute`: the default is for an account's budget, which the
    /// embedded service has none of (``Governor``).
    package var setsCreationsPerMinute = false

    /// `limits.partition_share`.
    package enum PartitionShare: String, Sendable, Hashable, CaseIterable {
        /// Each of N partitions takes 1/N of the creations a minute and of the Assemblies in flight.
        case split
        /// Each partition takes the manifest's figures whole (the scheduler throttles instead).
        case whole
    }
}

/// What the service's answers may hold (results per file, bytes per result), and the room their downloads leave.
package struct ResultLimits: Sendable, Hashable {
    /// The most results an Assembly may give per file it was sent; past it the shard fails (`TOO_MANY_RESULTS`).
    package var maxResultsPerFile: Int = ManifestDefaults.maxResultsPerFile
    /// The most bytes of one result, whatever size it declares (`RESULT_TOO_LARGE` past it).
    package var maxResultSize: Int64 = ManifestDefaults.maxResultSize
    /// The most bytes of one result whose size the service did not declare (`RESULT_TOO_LARGE` past it).
    package var maxUndeclaredResultSize: Int64 = ManifestDefaults.maxUndeclaredResultSize
    /// The bytes no download may leave less of on the output's file system (`OUTPUT_SPACE_LOW`).
    package var minFreeSpace: Int64 = ManifestDefaults.minFreeSpace

    package init(maxResultsPerFile: Int = ManifestDefaults.maxResultsPerFile, maxResultSize: Int64 = ManifestDefaults.maxResultSize,
                 maxUndeclaredResultSize: Int64 = ManifestDefaults.maxUndeclaredResultSize, minFreeSpace: Int64 = ManifestDefaults.minFreeSpace) {
        self.maxResultsPerFile = maxResultsPerFile
        self.maxResultSize = maxResultSize
        self.maxUndeclaredResultSize = maxUndeclaredResultSize
        self.minFreeSpace = minFreeSpace
    }

    /// Where the download of a result that declares `size` (or nil) stops, and the name of that bound for messages.
    package func bound(declared size: Int64?) -> (bytes: Int64, name: String) {
        if let size, size <= maxResultSize { return (size, "its declared \(size) bytes") }
        if size == nil, maxUndeclaredResultSize < maxResultSize {
            return (maxUndeclaredResultSize, "limits.max_undeclared_result_size (\(maxUndeclaredResultSize) bytes)")
        }
        return (maxResultSize, "limits.max_result_size (\(maxResultSize) bytes)")
    }
}

/// Where results are written.
package struct OutputSettings: Sendable, Hashable {
    /// Absolute directory.
    package var dir: String
    package var layout: OutputLayout
    /// Which steps' results are downloaded (`output.steps`).
    package var steps: ResultSelection
    /// The `format` each step of the recipe writes, by step name: a result's `{ext}`. Empty for a Template.
    package var formats: [String: String]
    /// The steps whose results are downloaded, sorted; `result` alone for a Template, whose steps are
    /// known only from its results: the steps an input's outputs are checked for before it is sent.
    package var downloadedSteps: [String]
    /// Whether `dir` is the default, `<state_dir>/output`, which the manifest does not name: it follows the state
    /// directory a run is given (``Manifest/inStateDirectory(_:)``).
    package var followsStateDir: Bool

    package init(dir: String, layout: OutputLayout, steps: ResultSelection = ResultSelection(downloaded: nil, exported: []),
                 formats: [String: String] = [:], downloadedSteps: [String] = ["result"], followsStateDir: Bool = false) {
        self.dir = dir
        self.layout = layout
        self.steps = steps
        self.formats = formats
        self.downloadedSteps = downloadedSteps
        self.followsStateDir = followsStateDir
    }
}

/// What the runs tell monitoring (`monitoring`).
package struct MonitoringSettings: Sendable, Hashable {
    /// Where each run writes its figures for Prometheus' textfile collector (absolute), if anywhere.
    package var metricsFile: String?
    /// Where the URL of the dead-man's switch each run pings is read from (`ping_url_env`, `ping_url_file`), if any.
    package var pingURL: SecretSource?
    /// How long a ping may take (`ping_timeout`), after which it is given up with a warning.
    package var pingTimeout: Duration

    package init(metricsFile: String? = nil, pingURL: SecretSource? = nil, pingTimeout: Duration = ManifestDefaults.pingTimeout) {
        self.metricsFile = metricsFile
        self.pingURL = pingURL
        self.pingTimeout = pingTimeout
    }
}
