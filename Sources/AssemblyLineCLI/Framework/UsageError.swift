/// A command line that cannot be taken as it is; exits 64 with the command's usage.
struct UsageError: Error, Sendable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}

/// Help or version output that ends the command successfully.
struct CleanExit: Error, Sendable {
    var text: String
}
