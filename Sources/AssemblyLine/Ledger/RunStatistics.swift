/// What a run moved and how long it took, from its attempts and results: the figures of `report`.
package struct RunStatistics: Sendable, Hashable {
    /// Assemblies the service accepted (attempts that reached `created`).
    package var assembliesCreated: Int
    /// Attempts beyond each shard's first: new Assemblies after a failure, a restart or a corrupt input.
    package var retries: Int
    /// File bytes sent to the service, over every attempt: with the creations, and confirmed by tus servers.
    package var bytesSent: Int64
    /// Result bytes downloaded and verified.
    package var bytesReceived: Int64
    /// From the first attempt's intent to the last result's download, per downloaded shard, by index.
    package var shardDurations: [Int: Duration]
    /// The usage the completed Assemblies said they cost (`bytes_usage`), summed over those that said.
    package var usageBytes: Int64
    /// Completed Assemblies that did not say their usage: `usageBytes` leaves them out.
    package var assembliesWithoutUsage: Int
    /// Seconds the completed Assemblies waited for a machine and ran, summed over those that said.
    package var queueSeconds: Double
    package var executionSeconds: Double

    package init(assembliesCreated: Int, retries: Int, bytesSent: Int64, bytesReceived: Int64, shardDurations: [Int: Duration],
                 usageBytes: Int64 = 0, assembliesWithoutUsage: Int = 0, queueSeconds: Double = 0, executionSeconds: Double = 0) {
        self.assembliesCreated = assembliesCreated
        self.retries = retries
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.shardDurations = shardDurations
        self.usageBytes = usageBytes
        self.assembliesWithoutUsage = assembliesWithoutUsage
        self.queueSeconds = queueSeconds
        self.executionSeconds = executionSeconds
    }
}
