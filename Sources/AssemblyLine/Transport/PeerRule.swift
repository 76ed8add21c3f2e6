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
    /// Any address but a link-local network or a cloud metadata service: public hosts, and this machine and
    /// the local network where an operator lets test endpoints be reached (the local service's imports).
    case anyButLinkLocal

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
        case .anyButLinkLocal:
            let scope = address.scope
            return scope == .linkLocal || scope == .metadata ? "\(address), \(scope)" : nil
        }
    }

    /// Why a URL whose host is `host` (a literal address) is refused on `port` before any connection; nil for a
    /// host name, which the transport checks on each address it resolves to.
    package func refusal(ofLiteral host: String, port: Int) -> String? {
        PeerAddress(host).flatMap { refusal(of: $0, port: port) }
    }
}
