import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built binary run as a user whom a file's mode refuses: root reads any file, so under root the commands run as
/// nobody, in a directory handed over to nobody.
struct NightUser {
    private let directory: TemporaryDirectory
    /// What comes before the binary's arguments: `setpriv` as nobody, or nothing.
    private let prefix: [String]

    /// The user of the commands run in `directory`: nobody, who then owns it, when the tests run as root; else their own.
    static func owning(_ directory: TemporaryDirectory) async throws -> NightUser {
        guard getuid() == 0 else { return NightUser(directory: directory, prefix: []) }
        let chown = try await BinaryRunner.run(["-R", "65534:65534", directory.url.path], in: directory.url,
                                               executable: URL(fileURLWithPath: "/bin/chown"))
        try #require(chown.status == 0, "\(chown.stderr)")
        return NightUser(directory: directory, prefix: ["--reuid=65534", "--regid=65534", "--clear-groups", BinaryRunner.binary.path])
    }

    /// Runs the binary with `arguments` in the directory, as this user.
    func run(_ arguments: [String]) async throws -> BinaryRunner.Outcome {
        try await BinaryRunner.run(prefix + arguments, in: directory.url, environment: ["HOME": directory.url.path],
                                   executable: prefix.isEmpty ? BinaryRunner.binary : URL(fileURLWithPath: "/usr/bin/setpriv"))
    }
}
