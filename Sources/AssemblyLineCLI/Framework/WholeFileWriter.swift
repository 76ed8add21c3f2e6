/// Writes a file whole: to a temporary name beside it, then renamed over it, so that a reader never sees half a file.
enum WholeFileWriter {
    /// Why the file could not be written: the system's reason.
    struct Failure: Error {
        var reason: String
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        let file = try PendingFile(beside: path)
        file.append(text)
        try file.commit()
    }

    /// Writes what `body` gives to its writer, each piece as it comes (a million files' CSV is never one text); when
    /// `body` throws, the file is not replaced and its error is thrown.
    static func write(to path: String, _ body: (_ write: @escaping (String) -> Void) async throws -> Void) async throws {
        let file = try PendingFile(beside: path)
        do {
            try await body(file.append)
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }
}
