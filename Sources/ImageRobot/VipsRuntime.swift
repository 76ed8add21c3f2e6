import CVips
#if canImport(Glibc)
import Glibc
#endif

/// libvips' process-wide setup, done once on first use, and its error messages.
///
/// The operation cache is switched off (`vips_cache_set_max(0)`): it keys file loads by name,
/// so a file rewritten at the same path could come back stale, and a resize never repeats an
/// operation anyway. That also keeps memory bounded to the images being processed. libvips
/// is thread-safe after `vips_init`; Swift runs this initialiser exactly once (`swift_once`).
/// `vips_init` writes the environment (`VIPSHOME`, from `vips_guess_prefix`), as this does for
/// `VIPS_WARNING`: while another thread reads it (`getenv`, as OpenSSL's start does on curl's
/// thread), a write that grows the environment frees the array being read, and `serve` died with
/// SIGSEGV in `getenv("OPENSSL_CONF")`. A process prepares libvips before its second thread
/// (``ImageResizer/prepareBeforeThreads()``).
/// libvips' own warnings on stderr (`VIPS-WARNING **: not enough data`) are switched off through
/// `VIPS_WARNING`, unless the environment sets it: a failed image already comes back as an error
/// with libvips' message, and the warnings would garble the progress lines of `run`.
///
/// libvips' vector paths (ORC, run-time compiled SIMD code) are switched off
/// (`vips_vector_set_enabled(false)`, as `VIPS_NOVECTOR=1` would): liborc before 0.4.34 — Debian
/// 12 ships 0.4.33 — splits and merges its list of code chunks outside its global mutex, so two
/// threads compiling or freeing ORC programs at once corrupt the list (upstream commit e48fa54,
/// "orccodemem: Fix for potential race in codemem alloc/free"). With the operation cache off,
/// every resize compiles and frees its programs, and two workers did so at once: `serve` died with
/// SIGSEGV inside liborc (shared/evidence/serve-sigsegv-liborc.txt). The plain C paths are a little
/// slower (bench/RESULTS.md) and cannot race.
enum VipsRuntime {
    private static let state: Result<Void, ImageRobotError> = {
        setenv("VIPS_WARNING", "0", 0)
        guard cvips_init("assemblyline") == 0 else {
            return .failure(.libraryUnavailable(reason: takeError()))
        }
        vips_cache_set_max(0)
        vips_cache_set_max_files(0)
        vips_vector_set_enabled(0)
        return .success(())
    }()

    /// The formats this libvips build can write.
    static let writableFormats: Set<ImageFormat> = {
        guard (try? ready()) != nil else { return [] }
        let savers: [(ImageFormat, String)] = [
            (.jpg, "jpegsave"), (.png, "pngsave"), (.webp, "webpsave"), (.gif, "gifsave"), (.tiff, "tiffsave"),
        ]
        return Set(savers.filter { vips_type_find("VipsOperation", $0.1) != 0 }.map(\.0))
    }()

    /// True when libvips would run its vector (ORC) paths; false once ``ready()`` has set it up.
    static var usesVectorPaths: Bool { vips_vector_isenabled() != 0 }

    /// Initialises libvips if needed.
    static func ready() throws(ImageRobotError) {
        try state.get()
    }

    /// libvips' pending error messages as one line, clearing them.
    ///
    /// libvips keeps one error buffer for the process, so when two images fail at the same
    /// moment a message may carry a line of the other's.
    static func takeError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { g_free(copy) }
        let lines = String(cString: copy).split(separator: "\n").map(String.init)
        return lines.isEmpty ? "unknown libvips error" : lines.joined(separator: "; ")
    }

    /// The format of the loader libvips picks for `path`, when it is one this module writes.
    static func loaderFormat(of path: String) -> ImageFormat? {
        guard let loader = vips_foreign_find_load(path) else {
            vips_error_clear()
            return nil
        }
        let name = String(cString: loader).lowercased()
        let known: [(String, ImageFormat)] = [("jpeg", .jpg), ("png", .png), ("webp", .webp), ("gif", .gif), ("tiff", .tiff)]
        return known.first { name.contains($0.0) }?.1
    }
}
