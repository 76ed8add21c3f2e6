import CCurl

/// Owns a `curl_slist` (request headers) and frees it when the transfer that uses it is done.
///
/// libcurl keeps only the pointer (https://curl.se/libcurl/c/CURLOPT_HTTPHEADER.html), so the list
/// must live as long as the easy handle uses it: the transfer holds both.
final class CurlStringList {
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) {
        for line in lines {
            head = curl_slist_append(head, line)
        }
    }

    deinit {
        curl_slist_free_all(head)
    }
}

@available(*, unavailable)
extension CurlStringList: Sendable {}
