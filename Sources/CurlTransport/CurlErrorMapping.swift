import AssemblyLine
import CCurl

/// Turns a failed transfer's `CURLcode` into the domain's `TransportError`
/// (codes: https://curl.se/libcurl/c/libcurl-errors.html).
enum CurlErrorMapping {
    static let tlsCodes: Set<UInt32> = [
        CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
        CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
        CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    static let resetCodes: Set<UInt32> = [
        CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM,
        CURLE_SEND_FAIL_REWIND,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    /// The error for `code`; `pending` (found by a callback) wins over libcurl's generic abort codes.
    static func error(
        for code: CURLcode, pending: TransportError?, url: String, reason: String
    ) -> TransportError {
        if let pending { return pending }
        let endpoint = TransportEndpoint(url: url).description
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .resolve(endpoint: endpoint, reason: reason)
        case CURLE_COULDNT_CONNECT:
            return .connect(endpoint: endpoint, reason: reason)
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(endpoint: endpoint, reason: reason)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled(endpoint: endpoint)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidRequest(url: url, reason: reason)
        default:
            if tlsCodes.contains(code.rawValue) { return .tls(endpoint: endpoint, reason: reason) }
            if resetCodes.contains(code.rawValue) { return .reset(endpoint: endpoint, reason: reason) }
            return .failed(endpoint: endpoint, reason: reason)
        }
    }
}
