import Synchronization

/// Turns one transfer's cumulative progress reports into increments of bytes sent, for a run-wide count.
final class SentBytesCounter: Sendable {
    private let sent: @Sendable (Int64) -> Void
    private let reported = Atomic<Int64>(0)

    init(_ sent: @escaping @Sendable (Int64) -> Void) {
        self.sent = sent
    }

    /// Passes on what was sent since the last report.
    func report(_ progress: TransferProgress) {
        let before = reported.exchange(progress.bytesSent, ordering: .relaxed)
        if progress.bytesSent > before { sent(progress.bytesSent - before) }
    }
}
