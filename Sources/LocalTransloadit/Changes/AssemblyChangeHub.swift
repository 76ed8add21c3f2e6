import Synchronization

/// Hands each Assembly's changes to the clients that follow its change stream.
final class AssemblyChangeHub: Sendable {
    private let subscriptions = Mutex<[String: [ObjectIdentifier: AssemblyChangeSubscription]]>([:])

    /// A new subscription to the changes of `assemblyID` published from now on.
    func subscribe(to assemblyID: String, urls: ServiceURLs) -> AssemblyChangeSubscription {
        let subscription = AssemblyChangeSubscription(assemblyID: assemblyID, urls: urls) { [weak self] in self?.unsubscribe($0) }
        subscriptions.withLock { $0[assemblyID, default: [:]][ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    /// Passes `changes` of `assemblyID` to its subscribers.
    func publish(_ changes: [AssemblyChange], of assemblyID: String) {
        guard !changes.isEmpty else { return }
        let subscribers = subscriptions.withLock { $0[assemblyID].map { Array($0.values) } ?? [] }
        subscribers.forEach { $0.deliver(changes) }
    }

    private func unsubscribe(_ subscription: AssemblyChangeSubscription) {
        subscriptions.withLock { all in
            all[subscription.assemblyID]?[ObjectIdentifier(subscription)] = nil
            if all[subscription.assemblyID]?.isEmpty == true {
                all[subscription.assemblyID] = nil
            }
        }
    }
}
