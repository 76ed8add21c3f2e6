/// Every default and bound of a version 1 manifest, in one place; `manifests/reference.yaml` mirrors it.
package enum ManifestDefaults {
    package static let expiresIn: Duration = .seconds(3_600)
    package static let expiresInRange: ClosedRange<Duration> = .seconds(10)...Duration.seconds(86_400)
    package static let signerTimeout: Duration = .seconds(10)
    package static let signerTimeoutRange: ClosedRange<Duration> = .milliseconds(100)...Duration.seconds(300)
    /// A ping to a dead-man's switch is short: healthchecks' own clients give up after 10 s.
    package static let pingTimeout: Duration = .seconds(10)
    package static let pingTimeoutRange: ClosedRange<Duration> = .milliseconds(100)...Duration.seconds(60)

    package static let resizeStrategy: ResizeSettings.Strategy = .fit
    package static let resizeDimensionRange: ClosedRange<Int> = 1...20_000
    package static let qualityRange: ClosedRange<Int> = 1...100

    package static let shardFiles = 20
    package static let shardFilesRange: ClosedRange<Int> = 1...10_000
    package static let shardMaxBytes: Int64 = 1 << 30
    package static let shardMaxBytesRange: ClosedRange<Int64> = 1...(1 << 40)

    package static let assemblies = 4
    package static let uploads = 4
    package static let downloads = 8
    package static let concurrencyRange: ClosedRange<Int> = 1...256

    package static let uploadMode: UploadSettings.Mode = .multipart
    package static let chunkSize: Int64 = 8 << 20
    package static let chunkSizeRange: ClosedRange<Int64> = (64 << 10)...(1 << 30)

    package static let retryAttempts = 5
    package static let retryAttemptsRange: ClosedRange<Int> = 1...100
    package static let retryBaseDelay: Duration = .seconds(1)
    package static let retryMaxDelay: Duration = .seconds(60)
    package static let retryDelayRange: ClosedRange<Duration> = .milliseconds(1)...Duration.seconds(3_600)

    package static let pollInterval: Duration = .milliseconds(250)
    package static let pollMaxInterval: Duration = .seconds(10)
    package static let pollTimeout: Duration = .seconds(3_600)
    package static let pollIntervalRange: ClosedRange<Duration> = .milliseconds(50)...Duration.seconds(600)
    package static let pollTimeoutRange: ClosedRange<Duration> = .seconds(1)...Duration.seconds(86_400)

    /// Transloadit allows 250 creations a minute; the default stays below it.
    package static let creationsPerMinute = 200
    package static let creationsPerMinuteRange: ClosedRange<Int> = 1...100_000
    /// Transloadit answers at most a few status requests a second per Assembly.
    package static let statusRequestsPerSecond = 2
    package static let statusRequestsPerSecondRange: ClosedRange<Int> = 1...100
    /// An Assembly's results per file it was sent: a thumbnail recipe gives a few; a hostile answer, thousands.
    package static let maxResultsPerFile = 100
    package static let maxResultsPerFileRange: ClosedRange<Int> = 1...100_000
    /// The most bytes of any result, its declared size included: 16 GiB.
    package static let maxResultSize: Int64 = 16 << 30
    /// A result whose size the service does not declare stops downloading here: 1 GiB.
    package static let maxUndeclaredResultSize: Int64 = 1 << 30
    /// No download leaves less than this free on the output's file system: 1 GiB; 0 (no floor) to 1 PiB.
    package static let minFreeSpace: Int64 = 1 << 30
    package static let minFreeSpaceRange: ClosedRange<Int64> = 0...(1 << 50)
    package static let maxResultSizeRange: ClosedRange<Int64> = 1...(1 << 40)
    /// `limits.failure_breaker`: the first 5 shards to end, all failed alike, stop the night's creations; 0 turns it off.
    package static let failureBreaker = 5
    package static let failureBreakerRange = 0...10_000

    /// `limits.max_usage`: none by default; from 1 MiB to 1 PiB.
    package static let maxUsageRange: ClosedRange<Int64> = (1 << 20)...(1 << 50)

    package static let stateDir = "runs"
    /// Relative to the state directory.
    package static let outputDir = "output"
    package static let outputLayout = "{step}/{relpath}.{ext}"
}
