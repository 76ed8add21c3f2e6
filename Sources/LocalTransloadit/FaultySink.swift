import HTTPServer

/// A body sink whose answer gets a fault: everything else passes through to the real sink.
final class FaultySink: HTTPBodySink {
    let inner: any HTTPBodySink
    let fault: FaultInjector.Fault

    init(inner: any HTTPBodySink, fault: FaultInjector.Fault) {
        self.inner = inner
        self.fault = fault
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        try inner.receive(chunk)
    }

    func finish() -> HTTPResponse {
        FaultInjector.apply(fault, to: inner.finish())
    }

    func abort(_ reason: HTTPAbortReason) {
        inner.abort(reason)
    }
}
