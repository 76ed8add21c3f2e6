/// Which inputs of its own Assembly a result was made from: what lets it count for a file.
///
/// The service names them (a result's `field`, or its `original_id`s and their uploads); only the
/// files the Assembly was sent count, so an answer cannot give a result to another shard's file or
/// make a file done with a result that names nothing of it.
package enum ResultSource: Sendable, Hashable {
    /// Made from this one input: the file's own result.
    case file(Int)
    /// Made from these inputs together (a zip, a concatenation): it counts for each of them.
    case several([Int])
    /// Names no input of the Assembly: recorded apart, never downloaded, never any file's result.
    case unmatched

    /// The three kinds; the raw values are what the `results.source` column holds.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case file, several, unmatched
    }

    /// The indices of the files the result counts for, in the order the service named them.
    package var inputs: [Int] {
        switch self {
        case let .file(index): [index]
        case let .several(indices): indices
        case .unmatched: []
        }
    }

    package var kind: Kind {
        switch self {
        case .file: .file
        case .several: .several
        case .unmatched: .unmatched
        }
    }
}
