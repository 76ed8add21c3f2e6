import AssemblyLine
import CCurl

/// The one thread that drives every transfer of a `CurlTransport` through a libcurl multi handle.
///
/// It loops: take new orders from the inbox, abort cancelled transfers, `curl_multi_perform`, collect
/// finished transfers, then `curl_multi_poll` until a socket is ready, a timer is due, or the inbox
/// wakes it. Connections stay in the multi handle's cache between transfers and are reused
/// (https://curl.se/libcurl/c/libcurl-multi.html). Everything here lives on the engine thread only.
final class CurlMultiEngine {
    /// Limits applied to the multi handle.
    struct Limits: Sendable {
        /// `CURLMOPT_MAX_HOST_CONNECTIONS`; 0 for no limit (further transfers queue inside libcurl).
        var maxHostConnections: Int
        /// `CURLMOPT_MAX_TOTAL_CONNECTIONS`; 0 for no limit.
        var maxTotalConnections: Int
    }

    /// The longest the engine sleeps in `curl_multi_poll` when nothing happens.
    static let pollIntervalMilliseconds: Int32 = 1000

    private let inbox: EngineInbox
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// Creates the multi handle and attaches it to `inbox`; nil when libcurl cannot make one.
    init?(inbox: EngineInbox, limits: Limits) {
        guard CurlGlobal.initialized, let multi = curl_multi_init() else { return nil }
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maxHostConnections)
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxTotalConnections)
        ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        self.inbox = inbox
        self.multi = multi
        inbox.attach(multi)
    }

    /// Runs transfers until the inbox asks for shutdown, then cancels what is left and frees the handle.
    func run() {
        while true {
            let work = inbox.take()
            for order in work.orders {
                start(order)
            }
            abortCancelled(generation: work.cancelGeneration, everything: work.shutdown)
            if work.shutdown { break }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            curl_multi_poll(multi, nil, 0, Self.pollIntervalMilliseconds, nil)
        }
        for order in inbox.close() {
            order.complete(.failure(.cancelled(endpoint: order.endpoint)))
        }
        curl_multi_cleanup(multi)
    }

    // MARK: - Transfers

    private func start(_ order: TransferOrder) {
        guard !order.ticket.isCancelled else {
            order.complete(.failure(.cancelled(endpoint: order.endpoint)))
            return
        }
        let transfer: CurlTransfer
        do throws(TransportError) {
            transfer = try CurlTransfer(order)
        } catch {
            order.complete(.failure(error))
            return
        }
        let code = curl_multi_add_handle(multi, transfer.handle.raw)
        guard code == CURLM_OK else {
            let reason = "curl_multi_add_handle: " + String(cString: curl_multi_strerror(code))
            order.complete(.failure(.failed(endpoint: order.endpoint, reason: reason)))
            return
        }
        transfers[transfer.handle.raw] = transfer
    }

    /// Aborts transfers whose task was cancelled, those older than the last `cancelAll`, or all of them.
    private func abortCancelled(generation: UInt64, everything: Bool) {
        let doomed = transfers.values.filter {
            everything || $0.order.ticket.isCancelled || $0.order.generation < generation
        }
        for transfer in doomed {
            finish(transfer, with: .failure(.cancelled(endpoint: transfer.endpoint)))
        }
    }

    /// Completes every transfer libcurl reports done.
    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = transfers[easy] else { continue }
            let code = message.pointee.data.result
            if code == CURLE_OK, transfer.pendingError == nil {
                finish(transfer, with: .success(transfer.response()))
            } else {
                let error = CurlErrorMapping.error(
                    for: code, pending: transfer.pendingError, url: transfer.order.request.url,
                    reason: transfer.failureReason(code))
                finish(transfer, with: .failure(error))
            }
        }
    }

    /// Detaches the transfer from the multi handle, then answers its caller; the handle is freed with it.
    private func finish(_ transfer: CurlTransfer, with result: Result<HTTPResponseInfo, TransportError>) {
        curl_multi_remove_handle(multi, transfer.handle.raw)
        transfers[transfer.handle.raw] = nil
        transfer.order.complete(result)
    }
}

@available(*, unavailable)
extension CurlMultiEngine: Sendable {}
