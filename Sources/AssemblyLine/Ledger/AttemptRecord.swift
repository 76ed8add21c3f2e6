import Foundation

/// One attempt of a shard: one client-chosen Assembly ID, as the `attempts` table holds it.
public struct AttemptRecord: Sendable, Hashable, Codable {
    public var shardIndex: Int
    /// 1 for the shard's first attempt, then 2, 3, ...
    public var number: Int
    public var assemblyID: AssemblyID
    public var outcome: AttemptOutcome
    /// When the intent was written, before anything was sent.
    public var startedAt: Date
    /// The Assembly's status URL, once the service accepted it.
    public var assemblyURL: String?
    /// The service's tus endpoint for this Assembly, when it named one.
    public var tusURL: String?
    /// When the service accepted the Assembly.
    public var createdAt: Date?
    /// When the Assembly finished executing; its results live about 24 hours from then.
    public var completedAt: Date?
    /// Why the attempt failed, when it did.
    public var failure: FailureReason?

    public init(shardIndex: Int, number: Int, assemblyID: AssemblyID, outcome: AttemptOutcome, startedAt: Date,
                assemblyURL: String?, tusURL: String?, createdAt: Date?, completedAt: Date?,
                failure: FailureReason?) {
        self.shardIndex = shardIndex
        self.number = number
        self.assemblyID = assemblyID
        self.outcome = outcome
        self.startedAt = startedAt
        self.assemblyURL = assemblyURL
        self.tusURL = tusURL
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.failure = failure
    }
}
