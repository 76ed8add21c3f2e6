import CCurl

extension CurlTransport {
    /// The libcurl this binary runs with, `libcurl/X.Y.Z`, for `--version`.
    package static var libraryVersion: String {
        String(String(cString: curl_version()).split(separator: " ").first ?? "libcurl")
    }
}
