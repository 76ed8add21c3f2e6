import HTTPMessages

/// Why a request head is refused (400) before any handler sees it.
///
/// libmicrohttpd 0.9.75 lets through framing that RFC 9112 asks a server to refuse: a NUL byte
/// cuts the request target it hands on, a space before a header's colon stays in the field
/// name, and an obs-fold continuation line is glued to the field. ``RequestContext`` notices the
/// first and the last from where libmicrohttpd left the strings in its read buffer; the rules
/// here judge the rest from the parsed head.
enum MalformedHead: Error, Hashable, CustomStringConvertible {
    /// The request target holds a NUL byte, raw or percent-encoded.
    case nulInTarget
    /// The request target holds a space or another control character.
    case controlInTarget
    /// A field name that is not an RFC 9110 token (a space before the colon, for one).
    case invalidFieldName(String)
    /// A field continued on an obs-fold line (RFC 9112 §5.2).
    case foldedField
    /// An HTTP/1.1 request without `Host` (RFC 9112 §3.2).
    case missingHost
    /// A field that may appear once appeared more often.
    case repeatedField(String)

    var description: String {
        switch self {
        case .nulInTarget: "the request target contains a NUL byte"
        case .controlInTarget: "the request target contains a space or a control character"
        case let .invalidFieldName(name): "header field name '\(EchoedText.excerpt(name))' is not a token (whitespace before the colon?)"
        case .foldedField: "a header field is continued on a second line (obs-fold is not accepted)"
        case .missingHost: "an HTTP/1.1 request needs a Host header field"
        case let .repeatedField(name): "header field \(name) appears more than once"
        }
    }

    /// The first refusal the head deserves, or nil when it is well-formed.
    ///
    /// - Parameters:
    ///   - targetCut: the target libmicrohttpd handed on ended at a NUL byte before its real end.
    ///   - folded: some field was glued from an obs-fold line.
    ///   - singletons: field names (any case) that may appear at most once.
    static func check(_ request: HTTPRequest, targetCut: Bool, folded: Bool, singletons: Set<String>) -> MalformedHead? {
        if targetCut || request.path.utf8.contains(0) { return .nulInTarget }
        if request.target.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) { return .controlInTarget }
        if let name = request.headers.fields.first(where: { !isToken($0.name) })?.name { return .invalidFieldName(name) }
        if folded { return .foldedField }
        if request.version == "HTTP/1.1" && request.headers["Host"] == nil { return .missingHost }
        for name in singletons.sorted() where request.headers.values(for: name).count > 1 {
            return .repeatedField(name)
        }
        return nil
    }

    /// The 400 answer, after which the connection is closed.
    var response: HTTPResponse {
        var response = HTTPResponse.text("Bad Request: \(description)\n", status: 400)
        response.headers.set("Connection", "close")
        return response
    }

    /// True for a non-empty RFC 9110 §5.6.2 token: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
