/// Why the local service could not start or keep its state.
package enum LocalServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP server could not listen (the port is taken, the host is not an address).
    case listenFailed(address: String, reason: String)
    /// The data directory could not be created or written.
    case dataDirectoryUnusable(path: String, reason: String)
    /// A stored Assembly or tus upload could not be read back on start.
    case unreadableState(path: String, reason: String)
    /// libvips could not start, so no image could be resized.
    case imagingUnavailable(String)
    /// The system's random source failed (no key, secret or ID could be made).
    case randomUnavailable(String)

    package var description: String {
        switch self {
        case let .listenFailed(address, reason):
            return "local service: cannot listen on \(address): \(reason)"
        case let .dataDirectoryUnusable(path, reason):
            return "local service: data directory \(path) is unusable: \(reason)"
        case let .unreadableState(path, reason):
            return "local service: cannot read stored state \(path): \(reason)"
        case let .imagingUnavailable(reason):
            return "local service: the image robot cannot start: \(reason)"
        case let .randomUnavailable(reason):
            return "local service: \(reason)"
        }
    }
}
