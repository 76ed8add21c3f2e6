package import ConfigFormat

/// One input of a URL list: where the service imports it from, the name its outputs mirror, its fields and identity.
package struct URLListEntry: Sendable, Hashable {
    /// The URL as written, refused by nothing in ``InputURLRule``.
    package var url: String
    /// A relative path the outputs mirror, as a local input's relative path: the row's `name`, or the URL's path
    /// percent-decoded and made safe (``URLOutputName``); unique in its list.
    package var outputName: String
    /// The row's own Assembly fields: strings, numbers and booleans.
    package var fields: [String: JSONValue]
    /// What the row says of the content; empty when it says nothing (a HEAD request can tell: ``URLHeadProbe``).
    package var identity: URLIdentity
    /// The line the row starts on, from 1.
    package var line: Int

    package init(url: String, outputName: String, fields: [String: JSONValue] = [:], identity: URLIdentity = URLIdentity(), line: Int) {
        self.url = url
        self.outputName = outputName
        self.fields = fields
        self.identity = identity
        self.line = line
    }
}
