/// Where the service writes its one-line notices: injected faults and failures it cannot answer with.
///
/// The CLI sends them to standard error; tests collect them. A line never holds a secret.
package struct ServiceLog: Sendable {
    private let sink: @Sendable (String) -> Void

    package init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Drops every line.
    package static let silent = ServiceLog { _ in }

    func callAsFunction(_ line: String) {
        sink(line)
    }
}
