// Issue 28's file reproducers through the real binary (`fs-…` cases): files are written only
// where meant (planted links, hard links, devices, pipes, the open store, ulimit -f), import
// sources are bounded, a FIFO store is read once, `.record` writes 0600, and a transcript run by
// `kept test` stays inside its folders. Each test ran once against the old code and failed.

import Foundation
import XCTest
@testable import KeptCLI
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class FileSafetyTests: XCTestCase {
    // MARK: helpers

    /// A JSON store with tasks `titles`, made by the binary.
    @discardableResult
    func makeStore(_ dir: TempDir, _ name: String, _ titles: [String] = ["one", "two"]) throws -> String {
        let path = dir.path(name)
        let r = try Kept.run(["run", "--store", path, "--write"] + Kept.clock + titles.flatMap { ["-e", "add \($0)"] })
        XCTAssertEqual(r.status, 0, r.summary)
        return path
    }

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    /// The kind of file at a path, as lstat says (S_IFIFO, S_IFREG…); 0 when there is none.
    func kind(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    func count(_ store: String) throws -> String {
        try Kept.run(["run", "--store", store, "-e", "count status:any"] + Kept.clock).stdout
    }

    // MARK: F5, temporary files and hard links

    /// fs-01 (F5): links planted under the old temporary names (`.st.json.tmp-PID`, for the
    /// PIDs the next processes get) are never followed: the victim keeps its bytes and mode,
    /// and the store stays a regular file.
    func testPlantedTemporaryLinksAreNotFollowed() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "st.json")
        let victim = try dir.write("victim.txt", "precious\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim)
        // PIDs are handed out in order: the next few hundred cover the child's.
        let last = Int((try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? Int(getpid())
        for pid in last..<(last + 400) {
            try? FileManager.default.createSymbolicLink(atPath: dir.path(".st.json.tmp-\(pid)"), withDestinationPath: victim)
        }
        let r = try Kept.run(["run", "--store", store, "--write", "-e", "add z"] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try dir.readText("victim.txt"), "precious\n")
        XCTAssertEqual(try mode(victim), 0o644)
        XCTAssertEqual(fileType(store), .typeRegular)
        XCTAssertEqual(try count(store), "3 of 3\n")
    }

    /// fs-02 (F5): in the process itself, a link at the writer's own old name is passed over,
    /// and the temporary name is random (two writes, two names), never `.NAME.tmp-PID`.
    func testTheTemporaryNameIsRandomAndExclusive() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let victim = try dir.write("victim.txt", "precious\n")
        let target = dir.path("out.json")
        try FileManager.default.createSymbolicLink(atPath: dir.path(".out.json.tmp-\(getpid())"), withDestinationPath: victim)
        guard case .success = Files.writeAtomically(Array("{}\n".utf8), to: target) else { return XCTFail("the write failed") }
        XCTAssertEqual(try dir.readText("victim.txt"), "precious\n")
        XCTAssertEqual(try dir.readText("out.json"), "{}\n")
        let a = Files.temporaryName(beside: target), b = Files.temporaryName(beside: target)
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(Files.basename(of: a).hasPrefix(".out.json.tmp-\(getpid())-"), a)
        // A name that is taken (here: every name, by a planted file) is never opened.
        let taken = dir.path(".taken")
        try "x".write(toFile: taken, atomically: false, encoding: .utf8)
        XCTAssertEqual(open(taken, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600), -1)
    }

    /// fs-03: a dead writer's temporary file (`.NAME.tmp-PID-RANDOM`) is removed by the next
    /// writer, as the old `.NAME.tmp-PID` was.
    func testADeadWritersTemporaryFileIsRemoved() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "st.json")
        // PID 4194304 is past Linux's largest (pid_max is at most 2^22), so no process has it.
        try dir.write(".st.json.tmp-4194304-00112233aabbccdd", "half")
        try dir.write(".st.json.tmp-4194304", "half")
        let r = try Kept.run(["run", "--store", store, "--write", "-e", "add three"] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try dir.listing(), [".st.json.lock", "st.json"])
    }

    /// fs-04: a store with another hard link is refused (E0336) rather than split by the rename:
    /// both names keep the same file, unchanged.
    func testAHardLinkedStoreIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "st.json")
        try FileManager.default.linkItem(atPath: store, toPath: dir.path("other.json"))
        let before = try dir.read("st.json")
        let r = try Kept.run(["run", "--store", store, "--write", "-e", "add z"] + Kept.clock)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0336]: the store '\(store)' has 2 hard links; nothing was written"), r.summary)
        XCTAssertEqual(try dir.read("st.json"), before)
        XCTAssertEqual(try dir.read("other.json"), before)
        let a = try FileManager.default.attributesOfItem(atPath: store)[.systemFileNumber] as? Int
        let b = try FileManager.default.attributesOfItem(atPath: dir.path("other.json"))[.systemFileNumber] as? Int
        XCTAssertEqual(a, b, "still one file")
    }

    // MARK: F7, F8, export targets

    /// fs-05 (F7): an export onto a device, a FIFO, a folder or a link to a device is E0611 with
    /// the statement's range, and each stays what it was.
    func testExportRefusesDevicesPipesAndFolders() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "s.json")
        XCTAssertEqual(mkfifo(dir.path("fifo"), 0o644), 0)
        try FileManager.default.createDirectory(atPath: dir.path("folder"), withIntermediateDirectories: false)
        // Links lead only to nodes this test made: code that wrote through a link to a real
        // device (as root, a run of the old code replaced /dev/null) must harm nothing else.
        try FileManager.default.createSymbolicLink(atPath: dir.path("fifo-link"), withDestinationPath: "fifo")
        var targets = ["fifo": "it is a pipe (FIFO), not a file", "folder": "it is a directory", "fifo-link": "it is a pipe (FIFO), not a file"]
        // Only root may make a device node (the issue's `mknod mynull c 1 3`; 1, 3 is
        // /dev/null, major 1 and minor 3 packed as glibc's makedev packs small numbers).
        if getuid() == 0, mknod(dir.path("mynull"), S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            try FileManager.default.createSymbolicLink(atPath: dir.path("null-link"), withDestinationPath: "mynull")
            targets["mynull"] = "it is a device, not a file"
            targets["null-link"] = "it is a device, not a file"
        }
        for (name, reason) in targets {
            let r = try Kept.run(["export", dir.path(name), "--store", store, "--as", "jsonl"] + Kept.clock, timeout: 10)
            XCTAssertFalse(r.timedOut, r.summary)
            XCTAssertEqual(r.status, 1, name + r.summary)
            XCTAssertTrue(r.stderr.contains("error[E0611]: will not export to '\(dir.path(name))': \(reason)"), name + r.summary)
        }
        XCTAssertEqual(kind(dir.path("fifo")), S_IFIFO)
        XCTAssertEqual(fileType(dir.path("folder")), .typeDirectory)
        XCTAssertEqual(kind(dir.path("fifo-link")), S_IFLNK)
        if targets["mynull"] != nil {
            XCTAssertEqual(kind(dir.path("mynull")), S_IFCHR)
            XCTAssertEqual(kind(dir.path("null-link")), S_IFLNK)
        }
        // The caret is under the file: column 8 of `export FILE`.
        let r = try Kept.run(["run", "--store", store, "--errors", "short", "-e", "export \(dir.path("folder")) as csv"] + Kept.clock)
        XCTAssertTrue(r.stderr.hasPrefix("-e:1:8: error[E0611]"), r.summary)
    }

    /// fs-06 (F8): an export onto the open store is refused, by its name, through a symlink, by
    /// another spelling, and onto a SQLite store or its -wal; the store still reads whole.
    func testExportRefusesTheOpenStore() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "f.json")
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.json"), withDestinationPath: "f.json")
        for spelling in ["f.json", "link.json", "./sub/../f.json", store] {
            for write in [false, true] {
                let r = try Kept.run(["run", "--store", store] + (write ? ["--write"] : []) + ["-e", "export \(spelling)"] + Kept.clock, cwd: dir.url)
                XCTAssertEqual(r.status, 1, spelling + r.summary)
                XCTAssertTrue(r.stderr.contains("error[E0611]: will not export to '\(spelling)': it is the open store"), spelling + r.summary)
            }
        }
        XCTAssertEqual(try count(store), "2 of 2\n")
        let db = dir.path("a.db")
        XCTAssertEqual(try Kept.run(["run", "--store", db, "--write", "-e", "add one"] + Kept.clock).status, 0)
        for target in ["a.db", "a.db-wal"] {
            let r = try Kept.run(["run", "--store", db, "-e", "export \(target) as jsonl"] + Kept.clock, cwd: dir.url)
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains("error[E0611]"), r.summary)
        }
        XCTAssertEqual(try count(db), "1 of 1\n")
    }

    /// fs-07: a symlink target is written through: the file it names gets the export, the link
    /// stays a link (docs/INTEROP.md).
    func testExportWritesThroughASymlink() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "s.json")
        try FileManager.default.createSymbolicLink(atPath: dir.path("l.jsonl"), withDestinationPath: "out.jsonl")
        let r = try Kept.run(["export", dir.path("l.jsonl"), "--store", store] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(fileType(dir.path("l.jsonl")), .typeSymbolicLink)
        XCTAssertEqual(try dir.readText("out.jsonl").split(separator: "\n").count, 2)
    }

    /// fs-16 (F8): a transcript's `@store` fixture is the open store too, in every `@case`:
    /// an export onto it is refused and the fixture keeps its bytes.
    func testExportRefusesATranscriptsStoreFixture() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try makeStore(dir, "fixture.json")
        let before = try dir.read("fixture.json")
        try dir.write("t.kept", """
        @store fixture.json

        > export fixture.json
        ! E0611 will not export to 'fixture.json': it is the open store './fixture.json'

        @case "again"
        > export ./fixture.json as jsonl
        ! E0611

        """)
        let r = try Kept.run(["test", "t.kept"], cwd: dir.url)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try dir.read("fixture.json"), before)
    }

    // MARK: F12, F11, F9

    /// fs-08 (F12): `kept import /dev/zero` ends at once with E0601, as CSV and as JSON Lines,
    /// from the path and from standard input; the store is as it was.
    func testImportFromAnEndlessDeviceEnds() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "s.json")
        let before = try dir.read("s.json")
        for format in ["csv", "jsonl"] {
            let r = try Kept.run(["import", "/dev/zero", "--as", format, "--store", store] + Kept.clock, timeout: 10)
            XCTAssertFalse(r.timedOut, r.summary)
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains("error[E0601]: could not import '/dev/zero': could not read '/dev/zero': it is a device, not a file"), r.summary)
        }
        let (status, err) = try Kept.shell("exec \"$0\" import - --as csv --store s.json < /dev/zero", cwd: dir.url)
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains("error[E0601]"), err)
        XCTAssertEqual(try dir.read("s.json"), before)
    }

    /// fs-09 (F12): a pipe past the import size limit is refused once past it (a small limit
    /// here; the binary's is 2 GiB), and a file past it before a byte is read.
    func testAnImportSourcePastTheLimitIsRefused() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let bytes = [UInt8](repeating: 0x61, count: 5000)
        XCTAssertEqual(write(fds[1], bytes, bytes.count), bytes.count)
        close(fds[1])
        defer { close(fds[0]) }
        guard case .success(let input) = ByteInput.open("/dev/fd/\(fds[0])", limit: 4096) else { return XCTFail("the pipe did not open") }
        XCTAssertThrowsError(try input.readAll()) { e in
            XCTAssertEqual((e as? ImportError)?.code, .E0601)
            XCTAssertTrue((e as? ImportError)?.message.contains("larger than 4,096 bytes, the import size limit") == true, "\(e)")
        }
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("big.csv", Data(bytes))
        guard case .failure(let e) = ByteInput.open(file, limit: 4096) else { return XCTFail("a file past the limit opened") }
        XCTAssertEqual(e.code, .E0601)
        XCTAssertEqual(Limits.importBytes, 2_147_483_648)
    }

    /// fs-10 (F11): a write past `ulimit -f` is E0307, not SIGXFSZ (exit 153); the store is
    /// byte for byte as it was and no temporary file is left.
    func testAWritePastTheFileSizeLimitIsAnError() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let lines = (1...3000).map { "{\"title\":\"task \($0) \(String(repeating: "x", count: 200))\"}" }.joined(separator: "\n")
        let jsonl = try dir.write("big.jsonl", lines + "\n")
        let store = dir.path("big.json")
        XCTAssertEqual(try Kept.run(["import", jsonl, "--store", store] + Kept.clock).status, 0)
        let before = try dir.read("big.json")
        XCTAssertGreaterThan(before.count, 1_000_000)
        let (status, err) = try Kept.shell("ulimit -f 400; exec \"$0\" run --store big.json --write --now 2026-06-15T09:00 --zone Europe/Berlin -e 'add x'", cwd: dir.url)
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains("error[E0307]: could not write the store 'big.json': file too large"), err)
        XCTAssertEqual(try dir.read("big.json"), before)
        XCTAssertEqual(try dir.listing(), [".big.json.lock", "big.json", "big.jsonl"])
    }

    /// fs-11 (F9): a FIFO store nobody writes ends after the pipe wait (E0308, not a hang); one
    /// a writer fills is read once; `--write` to one is E0336 and it stays a FIFO.
    func testAFIFOStoreIsReadOnceAndNeverWritten() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "real.json")
        let text = try dir.read("real.json")
        let fifo = dir.path("s.json")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let a = try Kept.run(["run", "--store", fifo, "-e", "count"] + Kept.clock, timeout: 25)
        XCTAssertFalse(a.timedOut, a.summary)
        XCTAssertEqual(a.status, 2, a.summary)
        XCTAssertTrue(a.stderr.contains("error[E0308]: could not read the store '\(fifo)': it is a pipe no process wrote to within 10 s"), a.summary)
        for write in [false, true] {
            // The writer waits in open until kept opens the FIFO to read.
            let writer = Thread {
                if let h = FileHandle(forWritingAtPath: fifo) {
                    h.write(text)
                    try? h.close()
                }
            }
            writer.start()
            let r = try Kept.run(["run", "--store", fifo] + (write ? ["--write", "-e", "add z"] : ["-e", "count status:any"]) + Kept.clock, timeout: 10)
            XCTAssertFalse(r.timedOut, r.summary)
            if write {
                XCTAssertEqual(r.status, 1, r.summary)
                XCTAssertTrue(r.stderr.contains("error[E0336]: the store '\(fifo)' is not a regular file; nothing was written"), r.summary)
            } else {
                XCTAssertEqual(r.status, 0, r.summary)
                XCTAssertEqual(r.stdout, "2 of 2\n", r.summary)
            }
        }
        XCTAssertEqual(kind(fifo), S_IFIFO)
        _ = store
    }

    // MARK: .record

    /// fs-12: `.record` creates the transcript 0600, as its store snapshot.
    func testRecordWritesPrivateFiles() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try makeStore(dir, "s.json")
        let rec = dir.path("bug.kept")
        let r = try Kept.run(["repl", "--store", store] + Kept.clock, stdin: Data("add x\n.record \(rec)\n".utf8))
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try mode(rec), 0o600)
        XCTAssertEqual(try mode(dir.path("bug.store.json")), 0o600)
    }

    // MARK: F6, transcripts are confined

    /// fs-13 (F6): the issue's transcript: an export to a file outside its folder and an import
    /// from one are E0337 at the file; the victim is untouched and nothing ran.
    func testATranscriptCannotWriteOrReadOutsideItsFolder() throws {
        let outside = try TempDir()
        defer { outside.cleanUp() }
        let victim = try outside.write("victim.sh", "#!/bin/sh\necho safe\n")
        let secret = try outside.write("secret.csv", "TYPE,CONTENT\ntask,secret\n")
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let escape = "escape-\(UUID().uuidString).jsonl"
        try dir.write("evil.kept", """
        > add x;touch PWNED;
        Added 1 · x;touch PWNED;

        > export \(victim) as csv
        ! E0337 '\(victim)' is outside the folders this transcript may use

        > import \(secret)
        ! E0337 '\(secret)' is outside the folders this transcript may use

        > export ../\(escape)
        ! E0337 '../\(escape)' is outside the folders this transcript may use (it leads to '\(dir.url.deletingLastPathComponent().resolvingSymlinksInPath().path)/\(escape)')

        """)
        let r = try Kept.run(["test", dir.path("evil.kept")], cwd: dir.url)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try outside.readText("victim.sh"), "#!/bin/sh\necho safe\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.url.deletingLastPathComponent().appendingPathComponent(escape).path))
    }

    /// fs-14 (F6): links inside the folder that lead out are judged by where they lead: one to
    /// an outside file, one that points nowhere yet (a write would create the outside file).
    func testATranscriptsLinksAreResolved() throws {
        let outside = try TempDir()
        defer { outside.cleanUp() }
        let secret = try outside.write("secret.csv", "TYPE,CONTENT\ntask,secret\n")
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try FileManager.default.createSymbolicLink(atPath: dir.path("in.csv"), withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: dir.path("out.jsonl"), withDestinationPath: outside.path("new.jsonl"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("up"), withDestinationPath: outside.url.path)
        try dir.write("links.kept", """
        > import in.csv
        ! E0337

        > export out.jsonl
        ! E0337

        > export up/x.jsonl
        ! E0337

        """)
        let r = try Kept.run(["test", "links.kept"], cwd: dir.url)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.path("new.jsonl")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.path("x.jsonl")))
    }

    /// fs-17 (F6): the run's temporary folder is new, private (0700), and gone after the run;
    /// `kept test` leaves nothing in TMPDIR.
    func testTheRunsTemporaryFolderIsPrivateAndRemoved() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try dir.write("a.kept", "> add x\nAdded 1 · x\n")
        let r = try Kept.run(["test", "a.kept"], cwd: dir.url, environment: ["TMPDIR": tmp.url.path])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try tmp.listing(), [])
        let made = try XCTUnwrap(TestRunner.makeScratchFolder())
        defer { try? FileManager.default.removeItem(atPath: made) }
        XCTAssertEqual(try mode(made), 0o700)
        let second = try XCTUnwrap(TestRunner.makeScratchFolder())
        defer { try? FileManager.default.removeItem(atPath: second) }
        XCTAssertNotEqual(second, made, "each run gets a folder of its own")
    }

    /// fs-15 (F6): inside its folder a transcript imports and exports as before; `--allow-path`
    /// widens the folders; `kept run` of the same statements keeps full access; `@store`
    /// outside is refused before it is read.
    func testAllowPathWidensAndRunKeepsFullAccess() throws {
        let outside = try TempDir()
        defer { outside.cleanUp() }
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let target = outside.path("out.jsonl")
        try dir.write("rt.kept", """
        > add x
        Added 1 · x

        > export inside.jsonl
        Exported 1 task to inside.jsonl (JSON Lines)

        > export \(target)
        Exported 1 task to \(target) (JSON Lines)

        """)
        let confined = try Kept.run(["test", "rt.kept"], cwd: dir.url)
        XCTAssertEqual(confined.status, 1, confined.summary)
        XCTAssertTrue(confined.stdout.contains("+! E0337 '\(target)' is outside"), confined.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let widened = try Kept.run(["test", "--allow-path", outside.url.path, "rt.kept"], cwd: dir.url)
        XCTAssertEqual(widened.status, 0, widened.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target))
        try FileManager.default.removeItem(atPath: target)
        let run = try Kept.run(["run", "-e", "add x", "-e", "export \(target)"] + Kept.clock, cwd: dir.url)
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target))
        let bad = try Kept.run(["test", "--allow-path", outside.path("none"), "rt.kept"], cwd: dir.url)
        XCTAssertEqual(bad.status, 64, bad.summary)
        try outside.write("s.json", "{\"tasks\": []}\n")
        try dir.write("store.kept", "@store \(outside.path("s.json"))\n\n> count\n0 of 0\n")
        let store = try Kept.run(["test", "store.kept"], cwd: dir.url)
        XCTAssertEqual(store.status, 2, store.summary)
        XCTAssertTrue((store.stdout + store.stderr).contains("E0337"), store.summary)
    }
}
