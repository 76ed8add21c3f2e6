import Synchronization

/// The change stream a shard follows: at most one, of the Assembly it polls, as the state machine says.
final class UpdateWatchSlot: Sendable {
    private let watch = Mutex<AssemblyUpdateWatch?>(nil)

    /// Follows the stream at `url`, closing the one followed before; nil follows none.
    func follow(_ url: String?, client: TransloaditClient) {
        let stale = watch.withLock { current in
            defer { current = url.map { AssemblyUpdateWatch(url: $0, client: client) } }
            return current
        }
        stale?.close()
    }

    /// The stream followed, if any.
    var current: AssemblyUpdateWatch? {
        watch.withLock { $0 }
    }

    func close() {
        watch.withLock { $0.take() }?.close()
    }
}
