/// Which peers a transfer's connections may reach: checked on the address of every connection, new or
/// reused, redirects included, before a request goes out on it (``HTTPTransferOptions/peers``).
package enum PeerRule: Sendable, Hashable {
    /// Any address: the API and the signer, which the manifest names.
    case any
    /// Only `port` on this machine's loopback addresses: a loopback endpoint's own origin.
    case loopback(port: Int)
    /// Only public addresses: never this machine, a private, shared, unique local or link-local network,
    /// nor a cloud metadata service (``PeerAddress/Scope``).
    case publicOnly
    /// Any address but a link-local one, a cloud metadata service or the unspecified address: what the service
    /// of a loopback endpoint may import from (this machine and the local network, where a developer's files lie).
    case notLinkLocal

    /// Why a connection to `address` on `port` is refused, nil when it may be made.
    package func refusal(of address: PeerAddress, port: Int) -> String? {
        switch self {
        case .any:
            return nil
        case let .loopback(allowed):
            guard address.scope != .loopback || port != allowed else { return nil }
            return "port \(port) of \(address), not the loopback endpoint's own origin (its port \(allowed))"
        case .publicOnly:
            let scope = address.scope
            return scope == .public ? nil : "\(address), \(scope)"
        case .notLinkLocal:
            let scope = address.scope
            return [.linkLocal, .metadata, .unspecified].contains(scope) ? "\(address), \(scope)" : nil
        }
    }

    /// Why a URL whose host is the literal `host` is refused before any connection, nil when it is allowed or is
    /// a name (which each connection's address is checked for: ``refusal(of:port:)``).
    package func refusal(ofHost host: String, port: Int) -> String? {
        PeerAddress(host).flatMap { refusal(of: $0, port: port) }
    }
}
