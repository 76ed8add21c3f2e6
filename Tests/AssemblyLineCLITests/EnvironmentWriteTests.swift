import Foundation
import TestSupport
import Testing

/// The process's environment is written only while it has one thread: a write that grows it frees
/// the array another thread's `getenv` may be reading (`serve` died so in `getenv("OPENSSL_CONF")`).
///
/// The binary runs with a preloaded library that logs every `setenv`, `putenv` and `unsetenv`
/// with the number of the process's threads at that moment, then does it.
@Suite(.timeLimit(.minutes(3))) struct EnvironmentWriteTests {
    static let watcher = """
        #define _GNU_SOURCE
        #include <dirent.h>
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <unistd.h>

        static int threads(void) {
            DIR *tasks = opendir("/proc/self/task");
            int count = 0;
            struct dirent *entry;
            while (tasks && (entry = readdir(tasks))) count += entry->d_name[0] != '.';
            if (tasks) closedir(tasks);
            return count;
        }

        static void note(const char *call, const char *name) {
            const char *log = getenv("ENV_WRITE_LOG");
            if (!log) return;
            int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0600);
            if (fd < 0) return;
            dprintf(fd, "%s %s %d\\n", call, name, threads());
            close(fd);
        }

        int setenv(const char *name, const char *value, int overwrite) {
            note("setenv", name);
            int (*next)(const char *, const char *, int) = dlsym(RTLD_NEXT, "setenv");
            return next(name, value, overwrite);
        }

        int putenv(char *text) {
            note("putenv", text);
            int (*next)(char *) = dlsym(RTLD_NEXT, "putenv");
            return next(text);
        }

        int unsetenv(const char *name) {
            note("unsetenv", name);
            int (*next)(const char *) = dlsym(RTLD_NEXT, "unsetenv");
            return next(name);
        }

        """

    /// Builds the watcher library in `directory` with the toolchain's `clang`.
    static func buildWatcher(in directory: TemporaryDirectory) async throws -> String {
        let source = try directory.write("watcher.c", watcher)
        let library = directory.url.appendingPathComponent("watcher.so").path
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin"
        let clang = try #require(searchPath.split(separator: ":").map { "\($0)/clang" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        let built = try await BinaryRunner.run(["-shared", "-fPIC", "-o", library, source.path, "-ldl"], in: directory.url,
                                               executable: URL(fileURLWithPath: clang))
        try #require(built.status == 0, "\(built.stderr)")
        return library
    }

    /// The logged writes as (call, name, threads).
    static func writes(in log: URL) -> [(call: String, name: String, threads: Int)] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return (String(fields[0]), String(fields[1]), Int(fields[2]) ?? 0)
        }
    }

    @Test func serveWritesTheEnvironmentBeforeItsSecondThread() async throws {
        let directory = try TemporaryDirectory()
        let library = try await Self.buildWatcher(in: directory)
        let log = directory.url.appendingPathComponent("writes.log")
        let server = try ChildServer(["serve", "--listen", "127.0.0.1:0", "--data-dir", "data", "--no-signature"], in: directory.url,
                                     name: "serve", environment: ["LD_PRELOAD": library, "ENV_WRITE_LOG": log.path])
        _ = try await server.baseURL()
        server.stop()
        let writes = Self.writes(in: log)
        #expect(writes.contains { $0.name == "VIPSHOME" }, "libvips' start writes VIPSHOME: \(writes)")
        #expect(writes.allSatisfy { $0.threads == 1 }, "\(writes)")
    }

    @Test func aRunOnTheEmbeddedServiceWritesTheEnvironmentBeforeItsSecondThread() async throws {
        let directory = try await RunCommandTests.job()
        let library = try await Self.buildWatcher(in: directory)
        let log = directory.url.appendingPathComponent("writes.log")
        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url,
                                             environment: ["LD_PRELOAD": library, "ENV_WRITE_LOG": log.path])
        #expect(run.status == 0, "\(run.stderr)")
        let writes = Self.writes(in: log)
        #expect(writes.contains { $0.name == "VIPSHOME" }, "libvips' start writes VIPSHOME: \(writes)")
        #expect(writes.allSatisfy { $0.threads == 1 }, "\(writes)")
    }
}
