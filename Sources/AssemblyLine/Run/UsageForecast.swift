/// What a run is expected to cost, from what past runs of the same manifest and recipe cost: what `plan`
/// shows and what `limits.max_usage` is checked against.
package struct UsageForecast: Sendable, Hashable {
    /// The usage past runs' completed Assemblies said they cost, over the planned bytes of their shards.
    package struct Basis: Sendable, Hashable {
        /// How many of the recent runs had an Assembly that said its usage.
        package var runs: Int
        package var usageBytes: Int64
        /// The input bytes of the shards whose Assembly said its usage.
        package var inputBytes: Int64

        package init(runs: Int, usageBytes: Int64, inputBytes: Int64) {
            self.runs = runs
            self.usageBytes = usageBytes
            self.inputBytes = inputBytes
        }

        /// Usage a byte of input, as those runs cost.
        package var ratio: Double { inputBytes > 0 ? Double(usageBytes) / Double(inputBytes) : 0 }
    }

    /// How many recent runs of the manifest and recipe the forecast reads.
    package static let recentRuns = 10

    /// The bytes of the files the run would send.
    package var bytesToSend: Int64
    /// nil when no recent run said its usage (a first night, or a service that does not say).
    package var basis: Basis?

    package init(bytesToSend: Int64, basis: Basis?) {
        self.bytesToSend = bytesToSend
        self.basis = basis.flatMap { $0.inputBytes > 0 ? $0 : nil }
    }

    /// The usage expected of the run: its bytes at the basis' ratio, rounded up, in whole bytes (no rounding error
    /// makes the same night cost a byte more); nil without a basis.
    package var expectedUsage: Int64? {
        guard let basis else { return nil }
        guard Double(bytesToSend) * basis.ratio < 9e18 else { return .max }
        let (quotient, remainder) = basis.inputBytes.dividingFullWidth(bytesToSend.multipliedFullWidth(by: basis.usageBytes))
        return quotient + (remainder > 0 ? 1 : 0)
    }
}
