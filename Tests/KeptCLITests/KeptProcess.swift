// Support for the CLI tests: runs the real `kept` binary as a child process and gives back its
// exit status, how it ended, and what it printed. The binary is `<package root>/.build/debug/kept`
// (the package root is three levels above this file) unless the environment names another one
// in `KEPT_BIN`. Output goes to temporary files, not pipes, so a chatty child never blocks.

import Foundation
import XCTest

/// What one run of `kept` did.
struct KeptRun: Sendable {
    var status: Int32
    /// `.exit` for a normal end; `.uncaughtSignal` when the child crashed (or was killed on timeout).
    var reason: Process.TerminationReason
    var timedOut: Bool
    var stdoutData: Data
    var stderrData: Data

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    var stderr: String { String(decoding: stderrData, as: UTF8.self) }
    /// Stdout split into lines, without the final empty line a trailing newline leaves.
    var stdoutLines: [String] { KeptRun.lines(stdout) }
    var stderrLines: [String] { KeptRun.lines(stderr) }

    static func lines(_ s: String) -> [String] {
        var l = s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if l.last == "" { l.removeLast() }
        return l
    }

    /// A short description for failure messages.
    var summary: String {
        "status \(status) (\(reason == .exit ? "exit" : "signal")\(timedOut ? ", timed out" : ""))\n"
            + "--- stdout\n\(stdout)--- stderr\n\(stderr)---"
    }
}

enum KeptBinaryError: Error, CustomStringConvertible {
    case missing(String)
    var description: String {
        switch self {
        case .missing(let p):
            return "the kept binary is missing at \(p): run `swift build` first (the Makefile runs it before `swift test`), or point KEPT_BIN at a built kept"
        }
    }
}

enum Kept {
    /// The package root: Tests/KeptCLITests/KeptProcess.swift → three levels up.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary under test: `KEPT_BIN`, or `<package root>/.build/debug/kept`.
    static var binaryPath: String {
        if let p = ProcessInfo.processInfo.environment["KEPT_BIN"], !p.isEmpty { return p }
        return packageRoot.appendingPathComponent(".build/debug/kept").path
    }

    /// Fails the calling test (and throws) when the binary is not there.
    static func requireBinary(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = binaryPath
        guard FileManager.default.isExecutableFile(atPath: p) else {
            let e = KeptBinaryError.missing(p)
            XCTFail(e.description, file: file, line: line)
            throw e
        }
        return p
    }

    /// Runs `kept ARGS`. `stdin` is fed from a temporary file (empty when nil, so a `run` with no
    /// script never waits on the terminal); `environment` adds to (or overrides) the test's own. A child still running after `timeout` is killed and
    /// reported with `timedOut`.
    static func run(_ args: [String], stdin: Data? = nil, cwd: URL? = nil, timeout: TimeInterval = 20,
                    environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> KeptRun {
        let bin = try requireBinary(file: file, line: line)
        let io = FileManager.default.temporaryDirectory.appendingPathComponent("kept-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: io) }
        let inURL = io.appendingPathComponent("stdin")
        let outURL = io.appendingPathComponent("stdout")
        let errURL = io.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inH = try FileHandle(forReadingFrom: inURL)
        let outH = try FileHandle(forWritingTo: outURL)
        let errH = try FileHandle(forWritingTo: errURL)
        defer {
            try? inH.close()
            try? outH.close()
            try? errH.close()
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = args
        p.standardInput = inH
        p.standardOutput = outH
        p.standardError = errH
        if let cwd { p.currentDirectoryURL = cwd }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TERM"] = "dumb"
        // The user's own store and config file are never the tests': without a store named on
        // its command line, a child works in this run's folder (a test that needs a home of its
        // own passes HOME and the XDG folders).
        env["XDG_DATA_HOME"] = io.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = io.appendingPathComponent("config").path
        env["KEPT_STORE"] = nil
        env["KEPT_CONFIG"] = nil
        // No width from the test runner's own environment: listings are not cut (R-VIEW-7).
        env.removeValue(forKey: "COLUMNS")
        env.merge(environment) { $1 }
        p.environment = env
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            p.terminate()
            if done.wait(timeout: .now() + 5) == .timedOut {
                kill(p.processIdentifier, SIGKILL)
                done.wait()
            }
        }
        p.waitUntilExit()
        return KeptRun(status: p.terminationStatus, reason: p.terminationReason, timedOut: timedOut,
                       stdoutData: (try? Data(contentsOf: outURL)) ?? Data(),
                       stderrData: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// What `kept run` without a store says at its end when a statement changed something
    /// (R-HOME-2): nothing was written.
    static let noStoreNote = "kept: note: nothing was written: this run has no store; --store FILE --write saves its changes, and 'kept add …' files on your own store"

    /// The fixed clock and zone every `kept run` in these tests gets.
    static let clock = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]
}

extension Kept {
    /// Runs a program (through `env`, so by its name) and gives back its status and what it
    /// printed, stdout and stderr together.
    /// Runs `sh -c script` with the kept binary as `$0` (and `args` as `$1`…), in `cwd` when
    /// given, with colour off: for input the process API cannot give (a device, bytes that are
    /// not UTF-8, a ulimit). Returns the status and stderr.
    static func shell(_ script: String, _ args: [String] = [], cwd: URL? = nil) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, try requireBinary()] + args
        if let cwd { p.currentDirectoryURL = cwd }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func runProgram(_ argv: [String], cwd: URL? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        if let cwd { p.currentDirectoryURL = cwd }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }

    /// Runs a Python driver script of the real binary (its path from the package root); it exits
    /// 0 when every check passed, and what it printed goes into the failure message.
    static func runDriver(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bin = try requireBinary()
        let r = try runProgram(["python3", packageRoot.appendingPathComponent(script).path, bin], cwd: packageRoot)
        // The figures a driver measures, in the test log.
        print(r.output, terminator: "")
        XCTAssertEqual(r.status, 0, r.output, file: file, line: line)
    }
}

/// A temporary folder, removed by `cleanUp()` (call it in a `defer`).
struct TempDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kept-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes a file in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let u = url.appendingPathComponent(name)
        try data.write(to: u)
        return u.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    func readText(_ name: String) throws -> String { String(decoding: try read(name), as: UTF8.self) }

    /// The names in the folder, sorted (hidden files included).
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
