#if canImport(Glibc)
import Glibc
#endif

/// A NUL-terminated copy of a string that stays at one address until it is released.
///
/// libmicrohttpd keeps the pointers to its PEM options, so their text must outlive the daemon.
final class OwnedCString: @unchecked Sendable {  // Never written after init; freed once, in deinit.
    let pointer: UnsafeMutablePointer<CChar>

    init(_ text: String) {
        pointer = strdup(text)
    }

    deinit {
        free(pointer)
    }
}
