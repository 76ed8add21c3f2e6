/// An Assembly's results as the mapper gives them: each with its inputs and delivery, and those refused.
package struct ResultMapping: Sendable, Hashable {
    /// A result that is recorded and not downloaded, and why: its files fail with the reason.
    package struct Refusal: Sendable, Hashable {
        package var result: NewResult
        /// `OUTPUT_COLLISION` (an earlier result took its output path) or `RESULT_URL_REFUSED`.
        package var reason: FailureReason
    }

    /// Every result, steps and files in order.
    package var results: [NewResult] = []
    /// The results refused a download: their files fail.
    package var refusals: [Refusal] = []

    package init() {}

    /// How many results name no input of the Assembly.
    package var unmatched: Int { results.count { $0.source == .unmatched } }
}
