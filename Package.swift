// swift-tools-version: 6.0
import PackageDescription

/// A system library reached through a module map and a `shim.h` of prefixed inline wrappers.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "AssemblyLine",
    products: [
        .executable(name: "assemblyline", targets: ["assemblyline"]),
    ],
    targets: [
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        systemLibrary("CYAML", pkgConfig: "yaml-0.1", apt: "libyaml-dev"),
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: "libssl-dev"),
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev"),
        systemLibrary("CVips", pkgConfig: "vips", apt: "libvips-dev"),

        .target(name: "CBuildStamp"),
        .target(name: "BuildStamp", dependencies: ["CBuildStamp"]),
        .target(name: "HTTPMessages"),
        .target(name: "ConfigFormat"),
        .target(name: "AssemblyLine", dependencies: ["HTTPMessages", "ConfigFormat"]),
        .target(name: "YAMLReader", dependencies: ["ConfigFormat", "CYAML"]),
        .target(name: "SQLiteLedger", dependencies: ["AssemblyLine", "CSQLite"]),
        .target(name: "Digests", dependencies: ["AssemblyLine", "CCrypto"]),
        .target(name: "CurlTransport", dependencies: ["AssemblyLine", "HTTPMessages", "CCurl"]),
        .target(name: "HTTPServer", dependencies: ["HTTPMessages", "CMicroHTTPD"]),
        .target(name: "ImageRobot", dependencies: ["CVips"]),
        .target(name: "SignServer", dependencies: ["AssemblyLine", "ConfigFormat", "HTTPMessages", "HTTPServer", "Digests"]),
        .target(name: "LocalTransloadit", dependencies: [
            "AssemblyLine", "ConfigFormat", "HTTPMessages", "HTTPServer", "ImageRobot", "Digests",
        ]),
        .target(name: "AssemblyLineCLI", dependencies: [
            "AssemblyLine", "ConfigFormat", "HTTPMessages", "YAMLReader", "SQLiteLedger", "SignServer", "LocalTransloadit", "Digests",
            "CurlTransport", "HTTPServer", "ImageRobot", "BuildStamp",
        ]),
        .executableTarget(name: "assemblyline", dependencies: ["AssemblyLineCLI"]),
        .target(name: "TestSupport", dependencies: ["AssemblyLine", "ConfigFormat", "HTTPMessages"], exclude: ["s3_server.py"]),
        .executableTarget(name: "ledger-bench", dependencies: ["AssemblyLine", "SQLiteLedger"], path: "bench/LedgerBench"),

        .testTarget(name: "HTTPMessagesTests", dependencies: ["HTTPMessages", "TestSupport"]),
        .testTarget(name: "ConfigFormatTests", dependencies: ["ConfigFormat"]),
        .testTarget(name: "AssemblyLineTests", dependencies: ["AssemblyLine", "ConfigFormat", "HTTPMessages", "TestSupport"]),
        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader", "ConfigFormat", "TestSupport"]),
        .testTarget(name: "SQLiteLedgerTests", dependencies: ["SQLiteLedger", "TestSupport"], exclude: ["Schema"]),
        .testTarget(name: "ManifestTests", dependencies: ["AssemblyLine", "ConfigFormat", "YAMLReader", "TestSupport"]),
        .testTarget(name: "DigestsTests", dependencies: ["Digests", "TestSupport"]),
        .testTarget(name: "CurlTransportTests", dependencies: ["CurlTransport", "AssemblyLine", "HTTPMessages", "Digests", "TestSupport"],
                    exclude: ["Support/test_server.py"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPMessages", "TestSupport"]),
        .testTarget(name: "ImageRobotTests", dependencies: ["ImageRobot", "TestSupport"]),
        .testTarget(name: "SignServerTests", dependencies: [
            "SignServer", "AssemblyLine", "ConfigFormat", "HTTPMessages", "CurlTransport", "Digests", "HTTPServer", "YAMLReader",
            "assemblyline", "TestSupport",
        ]),
        .testTarget(name: "LocalTransloaditTests", dependencies: [
            "LocalTransloadit", "AssemblyLine", "ConfigFormat", "HTTPMessages", "HTTPServer", "CurlTransport", "ImageRobot", "Digests", "YAMLReader",
            "TestSupport",
        ]),
        .testTarget(name: "PipelineTests", dependencies: [
            "AssemblyLine", "ConfigFormat", "HTTPMessages", "LocalTransloadit", "CurlTransport", "Digests", "ImageRobot", "SQLiteLedger", "TestSupport",
        ]),
        .testTarget(name: "AssemblyLineCLITests", dependencies: [
            "AssemblyLineCLI", "assemblyline", "AssemblyLine", "ConfigFormat", "SQLiteLedger", "ImageRobot", "Digests", "TestSupport",
            "HTTPMessages", "HTTPServer",
        ]),
        .testTarget(name: "RunSessionTests", dependencies: [
            "AssemblyLine", "ConfigFormat", "Digests", "HTTPMessages", "SQLiteLedger", "YAMLReader", "TestSupport",
        ]),
        .testTarget(name: "HostileInputTests", dependencies: [
            "assemblyline", "TestSupport", "Digests", "AssemblyLine", "ConfigFormat", "HTTPMessages",
        ]),
        .testTarget(name: "HostileServiceTests", dependencies: [
            "assemblyline", "TestSupport", "Digests", "ConfigFormat", "HTTPMessages", "HTTPServer", "SQLiteLedger",
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// Compiler settings for every Swift target, in one place (the way swift-log does it).
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // SE-0335: existential types are spelled `any P`.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // SE-0444: a file sees the members of a module's types only when it imports that module itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // SE-0409: an import is internal unless it says otherwise, so that a C module a target wraps stays its own.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    // SE-0461: a nonisolated async function runs on its caller's actor unless it is marked `@concurrent`.
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    // A public type says whether it is Sendable (the package's API is `package`; a public type would be new).
    settings.append(.unsafeFlags(["-Xfrontend", "-require-explicit-sendable"]))
    target.swiftSettings = settings
}
