/// Why an import step is not one a policy's `imports` allow: the key or element at fault, never a credential's value.
package enum ImportRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why one `path` or `url` element cannot be compared with a prefix.
    package enum Fault: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        /// A control, format or (in a URL) space or non-ASCII character.
        case unsafeCharacter
        /// A path that starts with `/`.
        case absolute
        /// An empty, `.` or `..` segment (in a URL, percent-encoded ones too).
        case dotSegment
        /// `\`, `@`, `%2F` or `%5C` before a URL's query, or `\` in a path: parsers disagree on where such a URL
        /// goes, or a server may read a separator there.
        case ambiguous
        /// `user:password@` in a URL.
        case credentials
        /// Not an absolute `http(s)://host/…` URL.
        case notAbsoluteURL

        package var description: String {
            switch self {
            case .empty: "is empty"
            case .unsafeCharacter: "holds a control, space or non-ASCII character"
            case .absolute: "starts with /"
            case .dotSegment: "has an empty, . or .. segment"
            case .ambiguous: "holds \\, @ or an encoded / or \\ before its query, which parsers read differently"
            case .credentials: "carries credentials"
            case .notAbsoluteURL: "is not an absolute http(s) URL"
            }
        }
    }

    /// No rule of `imports` names the step's Robot.
    case robotNotAllowed(String)
    /// A key the Robot does not take, or that this service does not sign.
    case unknownKey(String)
    /// `key`, `secret`, `bucket` or another inline credential: a step names Template Credentials instead.
    case inlineCredentials(String)
    /// `headers`, from a rule without `allow_headers: true`.
    case headersNotAllowed
    /// A key with a value of the wrong type, and what was expected.
    case wrongType(String, expected: String)
    /// No `credentials`, or credentials the rule does not name.
    case credentialsNotAllowed(String?)
    /// A required key is missing.
    case missing(String)
    /// An element (`path[1]`) that cannot be compared with a prefix.
    case unsafe(element: String, Fault)
    /// An element under none of the rule's prefixes.
    case outsidePrefixes(element: String)
    /// A `host` the rule does not name.
    case hostNotAllowed(String)

    package var description: String {
        switch self {
        case let .robotNotAllowed(robot): "robot \(PolicyRefusal.quote(robot)) is no import this policy allows"
        case let .unknownKey(key): "key \(PolicyRefusal.quote(key)) is not one the Robot takes that this service signs"
        case let .inlineCredentials(key): "inline credentials (\(key)) are refused; name Template Credentials in credentials"
        case .headersNotAllowed: "headers are refused, they may carry credentials (allow_headers: true allows them)"
        case let .wrongType(key, expected): "expected \(key) to be \(expected)"
        case let .credentialsNotAllowed(name?): "credentials \(PolicyRefusal.quote(name)) are not allowed for this Robot"
        case .credentialsNotAllowed(nil): "credentials are missing; expected Template Credentials the policy names"
        case let .missing(key): "\(key) is missing"
        case let .unsafe(element, fault): "\(element) \(fault)"
        case let .outsidePrefixes(element): "\(element) is not under an allowed prefix"
        case let .hostNotAllowed(host): "host \(PolicyRefusal.quote(host)) is not an allowed host"
        }
    }
}
