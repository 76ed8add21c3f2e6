/// Takes the chunks of a streamed response body (``HTTPDestination/stream(_:)``) on the transport's thread.
///
/// Two receivers are equal only when they are the same object. `receive` must not block: it runs
/// where the transport moves every transfer's bytes.
package final class HTTPStreamReceiver: Sendable, Hashable {
    private let handler: @Sendable ([UInt8]) -> Void

    package init(_ handler: @escaping @Sendable ([UInt8]) -> Void) {
        self.handler = handler
    }

    /// Hands one chunk over.
    package func receive(_ chunk: [UInt8]) {
        handler(chunk)
    }

    package static func == (lhs: HTTPStreamReceiver, rhs: HTTPStreamReceiver) -> Bool {
        lhs === rhs
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
