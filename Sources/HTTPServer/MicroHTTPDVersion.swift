import CMicroHTTPD

extension HTTPServer {
    /// The libmicrohttpd this binary runs with, `libmicrohttpd X.Y.Z`, for `--version`.
    package static var libraryVersion: String { "libmicrohttpd " + String(cString: MHD_get_version()) }
}
