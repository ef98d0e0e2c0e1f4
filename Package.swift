// swift-tools-version:6.0
// Kept: the rules engine of a personal planner, as a small language.
import PackageDescription

// Release builds optimise across the layers as they did inside the one module before the split:
// without it, the store loader's calls into the JSON reader of KeptRules are calls, not inlined
// code, and loading 100,000 tasks costs 13% more instructions (bench/README.md, "Layers").
let layerSettings: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Kept",
    products: [
        .executable(name: "kept", targets: ["kept"]),
        .library(name: "KeptCore", targets: ["KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSyntax", "KeptInterpreter", "KeptSync"]),
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
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // The layers (docs/ARCHITECTURE.md, "Layers"): each target may import only the ones
        // listed, and LayerTests holds this file, the sources' imports and the document together.

        // The rules: time, capture, repeats, filters as values, the plan, the model, the JSON codec.
        .target(
            name: "KeptRules",
            dependencies: ["CPCRE2"],
            swiftSettings: layerSettings
        ),
        // Files: bounded reads, atomic writes, paths.
        .target(
            name: "KeptFiles",
            dependencies: ["KeptRules"],
            swiftSettings: layerSettings
        ),
        // The domain API: the engine, its typed errors, and the storage seam it talks through.
        .target(
            name: "KeptDomain",
            dependencies: ["KeptRules"],
            swiftSettings: layerSettings
        ),
        // The backends behind the seam: the JSON file and SQLite.
        .target(
            name: "KeptStore",
            dependencies: ["KeptRules", "KeptDomain", "KeptFiles", "CSQLite"],
            swiftSettings: layerSettings
        ),
        // Other tools' files: readers and writers, and the files they read.
        .target(
            name: "KeptInterop",
            dependencies: ["KeptRules", "KeptDomain", "KeptFiles"],
            swiftSettings: layerSettings
        ),
        // The language: lexer, parser, AST, transcripts, and the diagnostics the parser makes.
        .target(
            name: "KeptSyntax",
            dependencies: ["KeptRules"],
            swiftSettings: layerSettings
        ),
        // The sync server on PostgreSQL: the schema, its merge functions, accounts.
        .target(
            name: "KeptSync",
            dependencies: ["KeptRules", "KeptDomain", "CLibPQ"],
            swiftSettings: layerSettings
        ),
        // The interpreter: resolves a statement, calls the engine, renders the result.
        .target(
            name: "KeptInterpreter",
            dependencies: ["KeptRules", "KeptDomain", "KeptInterop", "KeptSyntax"],
            swiftSettings: layerSettings
        ),

        // Front ends: batch runner, test runner, REPL.
        .target(
            name: "KeptCLI",
            dependencies: ["CReadline", "KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSyntax", "KeptInterpreter", "KeptSync"]
        ),

        // The executable: main.swift only.
        .executableTarget(
            name: "kept",
            dependencies: ["KeptCLI"]
        ),

        // Benchmarks (not tests): `make bench` runs them in release mode.
        .executableTarget(
            name: "kept-bench",
            dependencies: ["KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSyntax", "KeptInterpreter", "KeptSync"],
            path: "bench/KeptBench"
        ),

        .testTarget(
            name: "KeptCLITests",
            dependencies: ["KeptCLI", "KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSyntax", "KeptInterpreter", "KeptSync"]
        ),
        .testTarget(
            name: "KeptCoreTests",
            dependencies: ["KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSyntax", "KeptInterpreter", "KeptSync"]
        ),
    ]
)
