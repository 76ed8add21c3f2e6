import AssemblyLine
import CCurl

/// Owns one libcurl easy handle: typed option setters and info getters over the `ccurl_` shims.
///
/// Every setter throws instead of ignoring libcurl's refusal. The handle lives on the engine thread.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    /// The request's URL, for error messages (only its endpoint is ever shown).
    let url: String

    init(url: String) throws(TransportError) {
        guard let raw = curl_easy_init() else { throw .failed(endpoint: "\(TransportEndpoint(url: url))", reason: "curl_easy_init failed") }
        self.raw = raw
        self.url = url
    }

    deinit {
        curl_easy_cleanup(raw)
    }

    // MARK: - Options (https://curl.se/libcurl/c/curl_easy_setopt.html)

    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(ccurl_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, offset: Int64) throws(TransportError) {
        try check(ccurl_easy_setopt_off_t(raw, option, curl_off_t(offset)), option)
    }

    /// A string option; libcurl copies the string.
    func set(_ option: CURLoption, string: String) throws(TransportError) {
        try check(ccurl_easy_setopt_string(raw, option, string), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(TransportError) {
        try check(ccurl_easy_setopt_pointer(raw, option, pointer), option)
    }

    /// A header list; the caller keeps `list` alive while the handle may use it.
    func set(_ option: CURLoption, list: CurlStringList) throws(TransportError) {
        try check(ccurl_easy_setopt_slist(raw, option, list.head), option)
    }

    func set(_ option: CURLoption, write callback: curl_write_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_write_callback(raw, option, callback), option)
    }

    func set(_ option: CURLoption, read callback: curl_read_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_read_callback(raw, option, callback), option)
    }

    func set(_ option: CURLoption, seek callback: curl_seek_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_seek_callback(raw, option, callback), option)
    }

    func set(_ option: CURLoption, openSocket callback: curl_opensocket_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_opensocket_callback(raw, option, callback), option)
    }

    func set(_ option: CURLoption, prerequest callback: curl_prereq_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_prereq_callback(raw, option, callback), option)
    }

    func set(_ option: CURLoption, transferInfo callback: curl_xferinfo_callback) throws(TransportError) {
        try check(ccurl_easy_setopt_xferinfo_callback(raw, option, callback), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(TransportError) {
        guard code != CURLE_OK else { return }
        throw .invalidRequest(url: url, reason: "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
    }

    // MARK: - Information (https://curl.se/libcurl/c/curl_easy_getinfo.html)

    func info(long item: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(raw, item, &value) == CURLE_OK ? value : 0
    }

    func info(offset item: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(raw, item, &value) == CURLE_OK ? Int64(value) : 0
    }

    func info(string item: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

@available(*, unavailable)
extension CurlEasyHandle: Sendable {}
