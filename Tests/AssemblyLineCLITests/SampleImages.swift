import Digests
import Foundation
import TestSupport

/// The demo's sample images (`scripts/make-sample-images.py`), made once and copied into each job.
///
/// The script takes seconds of CPU and always makes the same images, so one set serves every job:
/// it is kept under the temporary directory by the script's MD5, made again only when the script changes.
enum SampleImages {
    private static let made = Task<URL, any Error> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/make-sample-images.py")
        let version = Hex.encode(Digest.md5(Array(try Data(contentsOf: script))))
        let temporary = FileManager.default.temporaryDirectory
        let kept = temporary.appendingPathComponent("assemblyline-samples-\(version)")
        if FileManager.default.fileExists(atPath: kept.path) { return kept }
        let partial = temporary.appendingPathComponent("assemblyline-samples-\(version).\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        let made = try await BinaryRunner.run(["python3", script.path, partial.path], in: temporary, executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        // Another test process may have made them first: theirs are the same.
        if rename(partial.path, kept.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        return kept
    }

    /// Copies the images to `destination`, which must not exist yet.
    static func copy(to destination: URL) async throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try await made.value, to: destination)
    }
}
