import AssemblyLine
import CCurl
import HTTPMessages

/// One request in flight on the engine: the easy handle configured from a `TransferOrder`, its body
/// reader, its response sink, and what the callbacks gathered.
///
/// The engine keeps the transfer alive while libcurl may call back into it; callbacks find it
/// through `Unmanaged` user data (see `CurlTransfer+Callbacks.swift`).
final class CurlTransfer {
    let order: TransferOrder
    /// The request's endpoint as error messages show it, worked out once (a body may come in many small chunks).
    let endpoint: String
    /// When the whole exchange must be over (`totalTimeout` from the start); the body's callbacks check it
    /// too, since libcurl checks its own timeout late while a fast peer keeps the socket busy.
    let deadline: ContinuousClock.Instant?
    let handle: CurlEasyHandle
    let reader: BodyPlanReader
    let sink: ResponseSink
    /// The headers of the latest response seen; restarted at each status line.
    var headers = HTTPHeaders()
    /// A failure found inside a callback, which libcurl only reports as a generic abort.
    var pendingError: TransportError?
    var lastProgress: TransferProgress?

    private let headerList: CurlStringList
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// The receive buffer size: fewer, larger callbacks on fast links.
    static let receiveBufferSize = 128 << 10
    /// The send buffer size, per https://curl.se/libcurl/c/CURLOPT_UPLOAD_BUFFERSIZE.html.
    static let sendBufferSize = 256 << 10

    init(_ order: TransferOrder) throws(TransportError) {
        let request = order.request
        for header in request.headers where header.isMalformed {
            throw .invalidRequest(url: request.url, reason: "malformed header \(header.name)")
        }
        if request.method == .get || request.method == .head, request.body.contentLength > 0 {
            throw .invalidRequest(url: request.url, reason: "\(request.method) with a body")
        }
        self.order = order
        endpoint = order.endpoint
        deadline = order.options.totalTimeout.map { ContinuousClock.now + $0 }
        handle = try CurlEasyHandle(url: request.url)
        reader = BodyPlanReader(plan: request.body.asPlan)
        sink = try ResponseSink(order.destination)
        headerList = CurlStringList(Self.headerLines(for: request))
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure()
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure, or its generic text for `code`.
    func failureReason(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    // MARK: - Configuration

    /// The request's header lines, plus ours: `Transloadit-Client`, no `Expect: 100-continue` round trip,
    /// and no default form `Content-Type` when a body comes without one.
    static func headerLines(for request: HTTPRequestSpec) -> [String] {
        var lines = [ClientIdentity.header.description]
        for header in request.headers where header.name.lowercased() != ClientIdentity.header.name.lowercased() {
            lines.append(header.value.isEmpty ? "\(header.name);" : header.description)
        }
        if !request.headers.contains(name: "Expect") {
            lines.append("Expect:")
        }
        if request.method != .get, request.method != .head, !request.headers.contains(name: "Content-Type") {
            lines.append("Content-Type:")
        }
        return lines
    }

    private func configure() throws(TransportError) {
        let request = order.request
        let options = order.options
        let userData = Unmanaged.passUnretained(self).toOpaque()
        try handle.set(CURLOPT_URL, string: request.url)
        try handle.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        // A redirect never takes an https exchange to plain http.
        let isHTTPS = request.url.lowercased().hasPrefix("https:")
        try handle.set(CURLOPT_REDIR_PROTOCOLS_STR, string: isHTTPS ? "https" : "http,https")
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try handle.set(CURLOPT_HTTPHEADER, list: headerList)
        try handle.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Waiting to share a connection only pays where HTTP/2 can multiplex (over TLS); over plain HTTP/1.1 a
        // transfer would wait for a busy connection to be free, which a change stream never is.
        try handle.set(CURLOPT_PIPEWAIT, isHTTPS ? 1 : 0)
        try handle.set(CURLOPT_BUFFERSIZE, Self.receiveBufferSize)
        try handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.sendBufferSize)
        try handle.set(CURLOPT_TCP_KEEPALIVE, 1)

        // TLS: verification is always on; only the trusted CA set can change.
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundle = options.caBundlePath {
            try handle.set(CURLOPT_CAINFO, string: caBundle)
        }

        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(options.connectTimeout))
        try handle.set(CURLOPT_TIMEOUT_MS, options.totalTimeout.map(Self.milliseconds) ?? 0)
        if let lowSpeed = options.lowSpeed {
            try handle.set(CURLOPT_LOW_SPEED_LIMIT, lowSpeed.bytesPerSecond)
            try handle.set(CURLOPT_LOW_SPEED_TIME, max(1, Int((Self.milliseconds(lowSpeed.duration) + 999) / 1000)))
        }
        try handle.set(CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0)
        try handle.set(CURLOPT_MAXREDIRS, options.maxRedirects)

        try configureMethod(request)
        try installCallbacks(userData)
        if options.peers != .any {
            try handle.set(CURLOPT_OPENSOCKETFUNCTION, openSocket: Self.openCheckedSocket)
            try handle.set(CURLOPT_OPENSOCKETDATA, pointer: userData)
            try handle.set(CURLOPT_PREREQFUNCTION, prerequest: Self.checkConnection)
            try handle.set(CURLOPT_PREREQDATA, pointer: userData)
        }
    }

    private func configureMethod(_ request: HTTPRequestSpec) throws(TransportError) {
        switch request.method {
        case .get:
            try handle.set(CURLOPT_HTTPGET, 1)
        case .head:
            try handle.set(CURLOPT_NOBODY, 1)
        case .post:
            try handle.set(CURLOPT_POST, 1)
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: request.body.contentLength)
        default:
            if request.body == .none {
                try handle.set(CURLOPT_CUSTOMREQUEST, string: request.method.rawValue)
            } else {
                try handle.set(CURLOPT_POST, 1)
                try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: request.body.contentLength)
                try handle.set(CURLOPT_CUSTOMREQUEST, string: request.method.rawValue)
            }
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    // MARK: - Outcome

    /// The response, read from the handle once libcurl reports the transfer done.
    func response() -> HTTPResponseInfo {
        let version = switch handle.info(long: CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): "1.0"
        case Int(CURL_HTTP_VERSION_2_0): "2"
        case Int(CURL_HTTP_VERSION_3): "3"
        default: "1.1"
        }
        return HTTPResponseInfo(
            status: handle.info(long: CURLINFO_RESPONSE_CODE),
            headers: headers,
            body: sink.body,
            url: handle.info(string: CURLINFO_EFFECTIVE_URL) ?? order.request.url,
            bytesSent: handle.info(offset: CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: handle.info(offset: CURLINFO_SIZE_DOWNLOAD_T),
            httpVersion: version)
    }
}

@available(*, unavailable)
extension CurlTransfer: Sendable {}
