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

        .target(name: "AssemblyLine"),
        .target(name: "YAMLReader", dependencies: ["AssemblyLine", "CYAML"]),
        .target(name: "SQLiteLedger", dependencies: ["AssemblyLine", "CSQLite"]),
        .target(name: "HMAC", dependencies: ["AssemblyLine", "CCrypto"]),
        .target(name: "CurlTransport", dependencies: ["AssemblyLine", "CCurl"]),
        .target(name: "HTTPServer", dependencies: ["AssemblyLine", "CMicroHTTPD"]),
        .target(name: "ImageRobot", dependencies: ["AssemblyLine", "CVips"]),
        .target(name: "SignServer", dependencies: ["AssemblyLine", "HTTPServer", "HMAC"]),
        .target(name: "LocalTransloadit", dependencies: ["AssemblyLine", "HTTPServer", "ImageRobot", "HMAC"]),
        .target(name: "AssemblyLineCLI", dependencies: [
            "AssemblyLine", "YAMLReader", "SQLiteLedger", "SignServer", "LocalTransloadit", "HMAC", "CurlTransport",
        ]),
        .executableTarget(name: "assemblyline", dependencies: ["AssemblyLineCLI"]),
        .target(name: "TestSupport"),
        .executableTarget(name: "ledger-bench", dependencies: ["AssemblyLine", "SQLiteLedger"], path: "bench/LedgerBench"),

        .testTarget(name: "AssemblyLineTests", dependencies: ["AssemblyLine"]),
        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader"]),
        .testTarget(name: "SQLiteLedgerTests", dependencies: ["SQLiteLedger"]),
        .testTarget(name: "ManifestTests", dependencies: ["AssemblyLine", "YAMLReader"]),
        .testTarget(name: "HMACTests", dependencies: ["HMAC"]),
        .testTarget(name: "CurlTransportTests", dependencies: ["CurlTransport", "AssemblyLine", "HMAC"],
                    exclude: ["Support/test_server.py"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "AssemblyLine", "TestSupport"]),
        .testTarget(name: "ImageRobotTests", dependencies: ["ImageRobot", "AssemblyLine"]),
        .testTarget(name: "SignServerTests", dependencies: [
            "SignServer", "AssemblyLine", "CurlTransport", "HMAC", "HTTPServer", "assemblyline",
        ]),
        .testTarget(name: "LocalTransloaditTests", dependencies: [
            "LocalTransloadit", "AssemblyLine", "CurlTransport", "ImageRobot", "HMAC", "YAMLReader",
        ]),
        .testTarget(name: "PipelineTests", dependencies: [
            "AssemblyLine", "LocalTransloadit", "CurlTransport", "HMAC", "ImageRobot", "SQLiteLedger",
        ]),
        .testTarget(name: "AssemblyLineCLITests", dependencies: [
            "AssemblyLineCLI", "assemblyline", "SQLiteLedger", "ImageRobot", "HMAC", "TestSupport",
        ]),
        .testTarget(name: "HostileInputTests", dependencies: ["assemblyline", "TestSupport", "HMAC", "AssemblyLine"]),
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
    target.swiftSettings = settings
}
