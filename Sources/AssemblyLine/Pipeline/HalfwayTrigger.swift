import Synchronization

/// Turns one transfer's progress reports into a single checkpoint, the first time half of the body has moved.
final class HalfwayTrigger: Sendable {
    private let checkpoint: @Sendable (PipelineCheckpoint) -> Void
    private let point: PipelineCheckpoint
    private let fired = Atomic<Bool>(false)
    private let counted = Atomic<Int64>(0)

    init(_ checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void, at point: PipelineCheckpoint) {
        self.checkpoint = checkpoint
        self.point = point
    }

    /// A progress handler that fires once half of the request body is sent.
    var sending: TransferProgressHandler {
        { [self] progress in
            fireOnce(when: progress.bytesToSend > 0 && progress.bytesSent * 2 >= progress.bytesToSend)
        }
    }

    /// A progress handler that fires once half of the announced response body is received.
    var receiving: TransferProgressHandler {
        { [self] progress in
            guard let total = progress.bytesToReceive, total > 0 else { return }
            fireOnce(when: progress.bytesReceived * 2 >= total)
        }
    }

    /// Counts an increment of bytes sent towards `total`; fires once half of it is sent.
    func add(_ bytes: Int64, of total: Int64) {
        let sofar = counted.add(bytes, ordering: .relaxed).newValue
        fireOnce(when: total > 0 && sofar * 2 >= total)
    }

    private func fireOnce(when reached: Bool) {
        guard reached, !fired.exchange(true, ordering: .relaxed) else { return }
        checkpoint(point)
    }
}
