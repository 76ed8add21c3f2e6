import AssemblyLine
import BuildStamp
import CurlTransport
import Digests
import HTTPServer
import ImageRobot
import SQLiteLedger
import YAMLReader

/// What `--version` prints: the version and commit, then the compiler and each library as this binary runs with it.
enum BuildDescription {
    static var text: String {
        let libraries = [CurlTransport.libraryVersion, HMAC.libraryVersion, SQLiteLedger.libraryVersion, YAMLReader.libraryVersion,
                         HTTPServer.libraryVersion, VipsVersion.text]
        return "assemblyline \(ClientIdentity.version) (commit \(BuildStamp.commit))\n"
            + "\(compiler), \(libraries.joined(separator: ", "))\n"
    }

    /// The Swift compiler that built it.
    private static var compiler: String {
        #if compiler(>=6.4)
        "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        "Swift 6.3"
        #elseif compiler(>=6.2)
        "Swift 6.2"
        #else
        "Swift 6.0 or 6.1"
        #endif
    }
}
