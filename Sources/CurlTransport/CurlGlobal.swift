import CCurl

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libcurl setup, done exactly once before the first engine starts.
enum CurlGlobal {
    /// Runs `curl_global_init` (not thread-safe itself, hence once, through a lazy global) and ignores
    /// SIGPIPE, which a peer closing a socket would otherwise raise (https://curl.se/libcurl/c/curl_global_init.html).
    static let initialized: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()
}
