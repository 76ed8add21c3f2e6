import HTTPServer

/// A body sink with a fault: its answer dropped or delayed, or (`cut`) its body lost half way.
///
/// A cut hands the real sink the body up to `cutAfter` bytes, then tells it the client went away
/// (so a creation ends as `REQUEST_ABORTED`, a tus PATCH keeps what arrived) and closes the
/// connection without an answer once the rest has been read.
final class FaultySink: HTTPBodySink {
    let inner: any HTTPBodySink
    let fault: FaultInjector.Fault
    private let cutAfter: UInt64?
    private var received: UInt64 = 0
    private var cut = false

    init(inner: any HTTPBodySink, fault: FaultInjector.Fault, cutAfter: UInt64?) {
        self.inner = inner
        self.fault = fault
        self.cutAfter = cutAfter
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        guard let cutAfter else { return try inner.receive(chunk) }
        let room = cutAfter > received ? Int(min(UInt64(chunk.count), cutAfter - received)) : 0
        if room > 0 {
            try inner.receive(UnsafeRawBufferPointer(rebasing: chunk[0..<room]))
        }
        received += UInt64(chunk.count)
        if received >= cutAfter {
            cutOff()
        }
    }

    func finish() -> HTTPResponse {
        if cutAfter != nil {
            cutOff()
            return .dropConnection()
        }
        return FaultInjector.apply(fault, to: inner.finish())
    }

    func abort(_ reason: HTTPAbortReason) {
        if !cut {
            inner.abort(reason)
        }
    }

    /// Tells the real sink its body will not come, once; the rest of the body is read and discarded.
    private func cutOff() {
        guard !cut else { return }
        cut = true
        inner.abort(.clientDisconnected)
    }
}
