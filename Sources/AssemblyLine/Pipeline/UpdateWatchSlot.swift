import Synchronization

/// The change stream a shard follows: at most one, of the Assembly it polls, while that one runs.
final class UpdateWatchSlot: Sendable {
    private let watch = Mutex<AssemblyUpdateWatch?>(nil)

    /// Follows the stream `status` names while the Assembly runs; closes the stream of another or an ended Assembly.
    ///
    /// A stream that ended is not opened again for the same URL: the shard polls instead.
    func follow(_ status: AssemblyStatus, client: TransloaditClient, onResult: @escaping @Sendable (String, AssemblyFile) -> Void) {
        let url = status.isRunning ? status.streamURL : nil
        let stale: AssemblyUpdateWatch? = watch.withLock { current in
            guard current?.url != url else { return nil }
            let old = current
            current = url.map { AssemblyUpdateWatch(url: $0, client: client, onResult: onResult) }
            return old
        }
        stale?.close()
    }

    /// The stream, while it is open.
    var live: AssemblyUpdateWatch? {
        watch.withLock { $0?.isLive == true ? $0 : nil }
    }

    func close() {
        watch.withLock { $0.take() }?.close()
    }
}
