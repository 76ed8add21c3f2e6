/// The longest each kind of request may take, whatever the peer does: one place for all of them.
///
/// libcurl's low-speed limit (under 1 byte a second for 60 s) never trips on an answer that
/// trickles at 2 bytes a second; a total deadline does. A request whose answer is a small JSON
/// document gets ``answer``; one that moves a body gets a minute more than the body takes at
/// ``slowestRate``. The change stream has none (the poll's own waits bound it), and the signer
/// has its manifest's `signer.timeout`.
package enum RequestDeadline {
    /// A status, a lookup, a cancel, a creation without files, a tus OPTIONS, HEAD or POST.
    package static let answer: Duration = .seconds(60)
    /// The slowest a body may move on average, in bytes a second, before its request is given up: 16 KiB/s.
    package static let slowestRate: Int64 = 16 << 10

    /// A request that moves `bytes` of body, up or down: a creation with its files, a tus PATCH, a result.
    package static func transfer(bytes: Int64) -> Duration {
        answer + .seconds(max(0, bytes) / slowestRate)
    }
}
