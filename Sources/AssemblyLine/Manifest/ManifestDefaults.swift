/// Every default and bound of a version 1 manifest, in one place; `manifests/reference.yaml` mirrors it.
public enum ManifestDefaults {
    public static let expiresIn: Duration = .seconds(3_600)
    public static let expiresInRange: ClosedRange<Duration> = .seconds(10)...Duration.seconds(86_400)
    public static let signerTimeout: Duration = .seconds(10)
    public static let signerTimeoutRange: ClosedRange<Duration> = .milliseconds(100)...Duration.seconds(300)

    public static let resizeStrategy: ResizeSettings.Strategy = .fit
    public static let resizeDimensionRange: ClosedRange<Int> = 1...20_000
    public static let qualityRange: ClosedRange<Int> = 1...100

    public static let shardFiles = 20
    public static let shardFilesRange: ClosedRange<Int> = 1...10_000
    public static let shardMaxBytes: Int64 = 1 << 30
    public static let shardMaxBytesRange: ClosedRange<Int64> = 1...(1 << 40)

    public static let assemblies = 4
    public static let uploads = 4
    public static let downloads = 8
    public static let concurrencyRange: ClosedRange<Int> = 1...256

    public static let uploadMode: UploadSettings.Mode = .multipart
    public static let chunkSize: Int64 = 8 << 20
    public static let chunkSizeRange: ClosedRange<Int64> = (64 << 10)...(1 << 30)

    public static let retryAttempts = 5
    public static let retryAttemptsRange: ClosedRange<Int> = 1...100
    public static let retryBaseDelay: Duration = .seconds(1)
    public static let retryMaxDelay: Duration = .seconds(60)
    public static let retryDelayRange: ClosedRange<Duration> = .milliseconds(1)...Duration.seconds(3_600)

    public static let pollInterval: Duration = .seconds(1)
    public static let pollMaxInterval: Duration = .seconds(10)
    public static let pollTimeout: Duration = .seconds(3_600)
    public static let pollIntervalRange: ClosedRange<Duration> = .milliseconds(50)...Duration.seconds(600)
    public static let pollTimeoutRange: ClosedRange<Duration> = .seconds(1)...Duration.seconds(86_400)

    /// Transloadit allows 250 creations a minute; the default stays below it.
    public static let creationsPerMinute = 200
    public static let creationsPerMinuteRange: ClosedRange<Int> = 1...100_000
    /// Transloadit answers at most a few status requests a second per Assembly.
    public static let statusRequestsPerSecond = 2
    public static let statusRequestsPerSecondRange: ClosedRange<Int> = 1...100

    public static let stateDir = "runs"
    /// Relative to the state directory.
    public static let outputDir = "output"
    public static let outputLayout = "{step}/{relpath}.{ext}"
}
