/// An HTTP request method, compared exactly as sent (RFC 9110 §9.1); the common ones are constants.
package struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package init(stringLiteral value: String) {
        rawValue = value
    }

    package static let get = HTTPMethod(rawValue: "GET")
    package static let head = HTTPMethod(rawValue: "HEAD")
    package static let post = HTTPMethod(rawValue: "POST")
    package static let put = HTTPMethod(rawValue: "PUT")
    package static let patch = HTTPMethod(rawValue: "PATCH")
    package static let delete = HTTPMethod(rawValue: "DELETE")
    package static let options = HTTPMethod(rawValue: "OPTIONS")

    package var description: String { rawValue }
}
