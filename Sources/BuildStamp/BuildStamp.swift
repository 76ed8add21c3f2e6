import CBuildStamp

/// The commit this binary was built from, as `make` stamped it (`scripts/stamp-commit.sh`); `unknown` for a plain `swift build`.
///
/// The one Swift module that reads the C stamp, so that no other module imports a C target.
package enum BuildStamp {
    package static var commit: String { String(cString: assemblyline_build_commit()) }
}
