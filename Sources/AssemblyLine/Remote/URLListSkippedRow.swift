/// A row of a URL list that is left out of the night, and why: what the report names instead of an input.
///
/// A row whose data is refused (its URL, name, identity or fields) is skipped and the night goes on
/// without it; a list whose form is wrong fails whole (``URLListError``).
package struct URLListSkippedRow: Sendable, Hashable, CustomStringConvertible {
    /// Why a row's data cannot be an input.
    package enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The URL is refused by ``InputURLRule``.
        case url(InputURLRule.Refusal)
        /// The `name` is not a safe relative path (``URLOutputName``); why.
        case name(String)
        /// The `etag`, `size` or `last_modified` is not one.
        case identity(URLIdentity.Problem)
        /// A field's name is not 1 to 64 letters, digits, `_` or `-`, or its value is not a string, number or boolean.
        case field(String)

        package var description: String {
            switch self {
            case let .url(refusal): "\(refusal)"
            case let .name(reason): "its name \(reason)"
            case let .identity(problem): "\(problem)"
            case let .field(name): "field \(RemoteText.escaped(name, limit: 64)) is not a name of letters, digits, _ or - with a string, number or boolean"
            }
        }
    }

    /// The line the row starts on, from 1.
    package var line: Int
    /// The column (a byte, from 1) of the cell at fault where the format tells it, else 1.
    package var column: Int
    /// The row's URL without credentials, escaped and bounded for printing.
    package var url: String
    package var problem: Problem

    package init(line: Int, column: Int, url: String, problem: Problem) {
        self.line = line
        self.column = column
        self.url = RemoteText.escaped(URLText.withoutCredentials(url), limit: RemoteText.nameLimit)
        self.problem = problem
    }

    package var description: String { "line \(line), column \(column): skipped \(url): \(problem)" }
}
