/// What a completed Assembly cost and how long the service took with it, as its status says.
///
/// Each figure is nil when the service did not say, or said something that is not a finite,
/// non-negative number (an unknown is kept apart from a zero: a report counts the Assemblies whose
/// usage it does not know). `bytes_usage` is the account's billed bytes, after the Robots' discounts.
package struct AssemblyUsage: Sendable, Hashable {
    /// `bytes_usage`: the bytes the Assembly counts towards the account's usage.
    package var bytes: Int64?
    /// `queue_duration`: seconds the Assembly waited for a machine.
    package var queueSeconds: Double?
    /// `execution_duration`: seconds its Steps ran.
    package var executionSeconds: Double?

    package init(bytes: Int64? = nil, queueSeconds: Double? = nil, executionSeconds: Double? = nil) {
        self.bytes = bytes
        self.queueSeconds = queueSeconds
        self.executionSeconds = executionSeconds
    }

    /// Nothing known.
    package static let unknown = AssemblyUsage()

    /// A count of bytes from a status number: whole, finite and within `Int64`, else unknown.
    static func bytes(_ value: Double?) -> Int64? {
        guard let value, value.isFinite, value >= 0, value < 9.2e18 else { return nil }
        return Int64(value.rounded())
    }

    /// Seconds from a status number: finite and non-negative, else unknown.
    static func seconds(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }
}
