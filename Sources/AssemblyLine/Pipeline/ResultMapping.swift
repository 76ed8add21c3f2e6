/// An Assembly's results as the mapper gives them: each with its inputs and delivery, and those refused a path.
package struct ResultMapping: Sendable, Hashable {
    /// A result refused its output path because an earlier result of the Assembly took it.
    package struct Collision: Sendable, Hashable {
        /// The result, recorded and not downloaded.
        package var result: NewResult
        /// The output path both rendered to.
        package var path: String
    }

    /// Every result, steps and files in order.
    package var results: [NewResult] = []
    /// The results that rendered to a path taken before them: their files fail (`OUTPUT_COLLISION`).
    package var collisions: [Collision] = []

    package init() {}

    /// How many results name no input of the Assembly.
    package var unmatched: Int { results.count { $0.source == .unmatched } }
}
