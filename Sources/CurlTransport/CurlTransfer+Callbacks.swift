import AssemblyLine
import CCurl
import HTTPMessages

#if canImport(Glibc)
import Glibc
#endif

/// The C callbacks of a transfer: non-capturing closures that recover the `CurlTransfer` from libcurl's
/// user-data pointer. They run on the engine thread, inside `curl_multi_perform`.
extension CurlTransfer {
    func installCallbacks(_ userData: UnsafeMutableRawPointer) throws(TransportError) {
        try handle.set(CURLOPT_WRITEFUNCTION, write: Self.writeBody)
        try handle.set(CURLOPT_WRITEDATA, pointer: userData)
        try handle.set(CURLOPT_HEADERFUNCTION, write: Self.receiveHeader)
        try handle.set(CURLOPT_HEADERDATA, pointer: userData)
        try handle.set(CURLOPT_READFUNCTION, read: Self.readBody)
        try handle.set(CURLOPT_READDATA, pointer: userData)
        try handle.set(CURLOPT_SEEKFUNCTION, seek: Self.rewindBody)
        try handle.set(CURLOPT_SEEKDATA, pointer: userData)
        try handle.set(CURLOPT_XFERINFOFUNCTION, transferInfo: Self.reportProgress)
        try handle.set(CURLOPT_XFERINFODATA, pointer: userData)
        try handle.set(CURLOPT_NOPROGRESS, 0)
    }

    static func from(_ userData: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// https://curl.se/libcurl/c/CURLOPT_WRITEFUNCTION.html: a short count makes libcurl fail with CURLE_WRITE_ERROR.
    static let writeBody: curl_write_callback = { data, size, count, userData in
        let transfer = CurlTransfer.from(userData)
        let length = size * count
        if let deadline = transfer.deadline, ContinuousClock.now > deadline {
            transfer.pendingError = .timeout(endpoint: transfer.endpoint, reason: "the exchange passed its total deadline")
            return 0
        }
        do throws(TransportError) {
            try transfer.sink.append(UnsafeRawBufferPointer(start: data, count: length), endpoint: transfer.endpoint)
            return length
        } catch {
            transfer.pendingError = error
            return 0
        }
    }

    /// https://curl.se/libcurl/c/CURLOPT_HEADERFUNCTION.html: one complete header line per call,
    /// status lines included; each status line starts a new response (redirect, `100 Continue`).
    static let receiveHeader: curl_write_callback = { data, size, count, userData in
        let transfer = CurlTransfer.from(userData)
        let length = size * count
        let line = UnsafeRawBufferPointer(start: data, count: length)
        if line.starts(with: "HTTP/".utf8) {
            transfer.headers = []
            do throws(TransportError) {
                try transfer.sink.reset(status: CurlTransfer.statusCode(line))
            } catch {
                transfer.pendingError = error
                return 0
            }
        } else if let header = CurlTransfer.parseHeader(line) {
            transfer.headers.append(header)
        }
        return length
    }

    /// The code of a status line (`HTTP/1.1 404 Not Found`), nil when it has none.
    static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let digits = line[(space + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return digits.count == 3 ? Int(String(decoding: digits, as: UTF8.self)) : nil
    }

    /// https://curl.se/libcurl/c/CURLOPT_OPENSOCKETFUNCTION.html: called for every new connection, redirects
    /// included, with the address it would go to; one the transfer's ``PeerRule`` refuses gets no socket.
    static let openCheckedSocket: curl_opensocket_callback = { userData, _, address in
        guard let address else { return CURL_SOCKET_BAD }
        let family = address.pointee.family
        let peer: (PeerAddress, port: Int)? = withUnsafePointer(to: &address.pointee.addr) { pointer in
            let raw = UnsafeRawPointer(pointer)
            switch family {
            case AF_INET:
                let v4 = raw.load(as: sockaddr_in.self)
                return withUnsafeBytes(of: v4.sin_addr) { PeerAddress(bytes: Array($0)) }.map { ($0, Int(UInt16(bigEndian: v4.sin_port))) }
            case AF_INET6:
                let v6 = raw.load(as: sockaddr_in6.self)
                return withUnsafeBytes(of: v6.sin6_addr) { PeerAddress(bytes: Array($0)) }.map { ($0, Int(UInt16(bigEndian: v6.sin6_port))) }
            default:
                return nil
            }
        }
        guard CurlTransfer.from(userData).allows(peer) else { return CURL_SOCKET_BAD }
        return socket(family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    /// https://curl.se/libcurl/c/CURLOPT_PREREQFUNCTION.html: called before each request goes out, on a new
    /// or a reused connection (which no socket callback saw), redirects included; a peer the transfer's
    /// ``PeerRule`` refuses gets no request.
    static let checkConnection: curl_prereq_callback = { userData, primaryIP, _, primaryPort, _ in
        let peer = primaryIP.flatMap { PeerAddress(String(cString: $0)) }.map { ($0, port: Int(primaryPort)) }
        return CurlTransfer.from(userData).allows(peer) ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
    }

    /// Whether the transfer's ``PeerRule`` lets it reach `peer` (an address it could not read never);
    /// when not, the refusal waits as the transfer's error.
    func allows(_ peer: (PeerAddress, port: Int)?) -> Bool {
        let rule = order.options.peers
        guard let (address, port) = peer else {
            pendingError = .refusedAddress(endpoint: endpoint, address: "an address that cannot be read")
            return false
        }
        guard let refusal = rule.refusal(of: address, port: port) else { return true }
        pendingError = .refusedAddress(endpoint: endpoint, address: refusal)
        return false
    }

    /// `Name: value` from one header line, the value without surrounding blanks and line end.
    static func parseHeader(_ line: UnsafeRawBufferPointer) -> HTTPHeader? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = colon + 1
        var end = line.count
        while start < end, isBlank(line[start]) { start += 1 }
        while end > start, isBlank(line[end - 1]) { end -= 1 }
        return HTTPHeader(
            name: String(decoding: line[..<colon], as: UTF8.self),
            value: String(decoding: line[start..<end], as: UTF8.self))
    }

    /// https://curl.se/libcurl/c/CURLOPT_READFUNCTION.html: fills libcurl's buffer from the body plan.
    static let readBody: curl_read_callback = { data, size, count, userData in
        let transfer = CurlTransfer.from(userData)
        do throws(BodyPlanError) {
            return try transfer.reader.read(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
        } catch {
            transfer.pendingError = TransportError(error)
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// https://curl.se/libcurl/c/CURLOPT_SEEKFUNCTION.html: libcurl rewinds to resend the body, e.g. when a
    /// reused connection turned out dead.
    static let rewindBody: curl_seek_callback = { userData, offset, origin in
        let transfer = CurlTransfer.from(userData)
        guard origin == SEEK_SET, transfer.reader.seek(to: Int64(offset)) else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        return Int32(CURL_SEEKFUNC_OK)
    }

    /// https://curl.se/libcurl/c/CURLOPT_XFERINFOFUNCTION.html: reports progress when it changed, and
    /// aborts a cancelled transfer (non-zero return → CURLE_ABORTED_BY_CALLBACK).
    static let reportProgress: curl_xferinfo_callback = { userData, downloadTotal, downloaded, _, uploaded in
        let transfer = CurlTransfer.from(userData)
        guard !transfer.order.ticket.isCancelled else { return 1 }
        let progress = TransferProgress(
            bytesSent: Int64(uploaded), bytesToSend: transfer.order.request.body.contentLength,
            bytesReceived: Int64(downloaded), bytesToReceive: downloadTotal > 0 ? Int64(downloadTotal) : nil)
        if progress != transfer.lastProgress {
            transfer.lastProgress = progress
            transfer.order.progress?(progress)
        }
        return 0
    }
}
