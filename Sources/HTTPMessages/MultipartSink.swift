/// Receives what a ``MultipartParser`` reads: small fields whole, files as a stream of chunks.
///
/// Calls arrive in body order: for a file part, `beginFile`, any number of `receiveFileData`
/// (never empty, and as large as the input chunks allow), then `endFile`. The buffers passed to
/// `receiveFileData` are only valid during the call. An error thrown here stops the parser and
/// comes out of ``MultipartParser/feed(_:into:)`` unchanged.
package protocol MultipartSink {
    /// A complete field (a part without a filename).
    mutating func receiveField(_ field: FormField, part: MultipartPart) throws
    /// A file part starts.
    mutating func beginFile(_ part: MultipartPart) throws
    /// The next bytes of the current file.
    mutating func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws
    /// The current file ended (its closing boundary was seen).
    mutating func endFile() throws
}
