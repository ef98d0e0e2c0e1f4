// swift-tools-version:6.0
// Kept: the rules engine of a personal planner, as a small language.
import PackageDescription

let package = Package(
    name: "Kept",
    products: [
        .executable(name: "kept", targets: ["kept"]),
        .library(name: "KeptCore", targets: ["KeptCore"]),
    ],
    targets: [
        // C libraries, found through pkg-config; the Makefile installs the apt packages.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CReadline",
            pkgConfig: "readline",
            providers: [.apt(["libreadline-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // The engine: no terminal I/O, no readline.
        .target(
            name: "KeptCore",
            dependencies: ["CPCRE2", "CSQLite"]
        ),

        // Front ends: batch runner, test runner, REPL.
        .target(
            name: "KeptCLI",
            dependencies: ["CReadline", "KeptCore"]
        ),

        // The executable: main.swift only.
        .executableTarget(
            name: "kept",
            dependencies: ["KeptCLI"]
        ),

        // Benchmarks (not tests): `make bench` runs them in release mode.
        .executableTarget(
            name: "kept-bench",
            dependencies: ["KeptCore"],
            path: "bench/KeptBench"
        ),

        .testTarget(
            name: "KeptCLITests",
            dependencies: ["KeptCLI", "KeptCore"]
        ),
        .testTarget(
            name: "KeptCoreTests",
            dependencies: ["KeptCore"]
        ),
    ]
)
