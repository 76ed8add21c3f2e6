import Synchronization

/// Turns one transfer's running byte count into increments for the caller's counter, so progress counts bytes as they go.
///
/// The transport reports how many body bytes it sent so far; each report adds what is new. A
/// transport that rewinds the body (and sends it again) reports a smaller count, after which the
/// bytes sent again are counted again.
final class TusByteCounter: Sendable {
    private let state = Mutex<(last: Int64, counted: Int64)>((0, 0))
    private let report: (@Sendable (Int64) -> Void)?

    init(report: (@Sendable (Int64) -> Void)?) {
        self.report = report
    }

    /// The progress handler to give the transport.
    var handler: TransferProgressHandler {
        { [self] progress in advance(to: progress.bytesSent) }
    }

    /// Every byte counted so far.
    var counted: Int64 { state.withLock { $0.counted } }

    /// Takes the transfer's running count `total` and reports what it adds.
    func advance(to total: Int64) {
        let added = state.withLock { state -> Int64 in
            let added = max(0, total - state.last)
            state.last = total
            state.counted += added
            return added
        }
        if added > 0 { report?(added) }
    }
}
