/// A path as a dictionary key, compared and hashed by its bytes so canonically equivalent names stay distinct.
///
/// Swift's `String` equates `café` in NFC and in NFD; the file system holds them as two files.
package struct PathKey: Sendable, Hashable {
    package var path: String

    package init(_ path: String) {
        self.path = path
    }

    package static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        PathText.same(lhs.path, rhs.path)
    }

    package func hash(into hasher: inout Hasher) {
        PathText.hashBytes(of: path, into: &hasher)
    }
}
