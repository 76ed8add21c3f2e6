/// How one result of a run stands; the raw values are what the `results.state` column holds.
package enum ResultState: String, Sendable, Hashable, CaseIterable {
    /// To be downloaded; not on disk and verified yet.
    case pending
    /// On disk at its output path, verified.
    case downloaded
    /// Stored by an export Robot in the customer's storage: recorded, not fetched.
    case exported
    /// Not downloaded (a step `output.steps` leaves out, or a result without a URL).
    case recorded

    /// The state a new result starts in.
    package init(_ delivery: NewResult.Delivery) {
        switch delivery {
        case .download: self = .pending
        case .exported: self = .exported
        case .recorded: self = .recorded
        }
    }
}
