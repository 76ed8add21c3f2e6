/// Why an Assembly failed while executing: the error code and where it struck.
struct AssemblyFailure: Codable, Sendable, Hashable {
    /// A ``ServiceErrorCode``'s raw value, or the code a fault plan names (any text).
    var code: String
    var message: String
    var reason: String?
    /// The step that failed.
    var step: String?
    /// The name of the input file that failed.
    var file: String?
    /// The ID of the upload the failing file comes from.
    var originalID: String?
}

extension AssemblyFailure: Error {}
