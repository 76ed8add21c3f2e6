/// Text from a request as an answer or a log line may repeat it: short, whatever the client sent.
///
/// A request can carry a path segment or a header value of hundreds of kilobytes; an error that
/// quotes it whole would send it straight back (and fill logs). Quoting goes through here.
package enum EchoedText {
    /// The characters an excerpt keeps.
    package static let limit = 64

    /// `text`, or its first ``limit`` characters followed by `…`.
    package static func excerpt(_ text: some StringProtocol) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
    }
}
