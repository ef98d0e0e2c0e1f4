// Builds a Session from the command-line options: loads the store, fixes the clock and zone.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Makes sessions for the front ends.
enum SessionFactory {
    /// The clock and zone of test mode, when a script sets neither (docs/SCRIPTS.md: test mode
    /// freezes the clock): Monday 2026-06-15 09:00 in Europe/Berlin.
    static let testNow = CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 15) ?? CivilDate(dayNumber: 20619),
                                       time: WallTime(hour: 9, minute: 0) ?? .midnight)
    static let testZone = "Europe/Berlin"

    /// The machine's zone, for sessions that do not name one.
    static var machineZone: Zone {
        Zone(identifier: TimeZone.current.identifier) ?? Zone.utc
    }

    enum Failure: Error {
        case usage(String)
        case store(Diagnostic)
    }

    /// Parses `--now`: an instant with an offset, or a wall-clock reading in the account zone.
    static func clock(_ now: String?) -> Result<SessionClock, Failure> {
        guard let now else { return .success(.clock(SystemClock())) }
        if let i = TimeText.parseISOInstant(now) { return .success(.instant(i)) }
        let parts = now.split(whereSeparator: { $0 == " " || $0 == "T" }).map { Array($0.utf8) }
        if parts.count == 2, let d = CivilDate.parseISO(parts[0]), let t = WallTime.parseISO(parts[1]) {
            return .success(.wall(CivilDateTime(date: d, time: t)))
        }
        if parts.count == 1, let d = CivilDate.parseISO(parts[0]) {
            return .success(.wall(CivilDateTime(date: d, time: .midnight)))
        }
        return .failure(.usage("--now takes a date-time like 2026-06-15T09:00 or 2026-06-15T07:00:00Z, not '\(now)'"))
    }

    static func zone(_ name: String?) -> Result<Zone?, Failure> {
        guard let name else { return .success(nil) }
        guard let z = Zone(identifier: name) else { return .failure(.usage("--zone takes an IANA zone like Europe/Berlin, not '\(name)'")) }
        return .success(z)
    }

    /// The store named by the options, with the backend its file is (docs/STORE.md, "Which
    /// backend"); an empty store in memory without `--store`. A JSON store the session may not
    /// write is held in memory; a SQLite store never commits then.
    static func backend(_ path: String?, writable: Bool) -> Result<any StoreBackend, Failure> {
        guard let path else { return .success(JSONStore(memory: Store())) }
        switch StoreKind.open(path) {
        case .success(let s as JSONStore) where !writable: return .success(JSONStore(memory: s.store, readFrom: path))
        case .success(let s): return .success(s)
        case .failure(.kind(let e)): return .failure(.usage(e.message))
        case .failure(.store(let e)): return .failure(.store(Catalog.store(e)))
        }
    }

    /// When a front end's session commits: the REPL after each statement when it has a store
    /// file; `kept run --write` once at the end; otherwise never.
    static func commits(_ o: SessionOptions, repl: Bool) -> CommitPolicy {
        guard o.store != nil else { return .never }
        if repl || o.commitEachStatement { return .eachStatement }
        return o.write ? .atEnd : .never
    }

    /// Test mode's uids: the same on every run of a transcript.
    static let testUIDSeed: UInt64 = 20_260_615

    static func make(_ o: SessionOptions, testMode: Bool, commits: CommitPolicy = .never,
                     pathPolicy: PathPolicy = .unrestricted) -> Result<Session, Failure> {
        let store: any StoreBackend
        switch backend(o.store, writable: commits != .never) { case .success(let s): store = s; case .failure(let f): return .failure(f) }
        var clk: SessionClock
        switch clock(o.now) { case .success(let c): clk = c; case .failure(let f): return .failure(f) }
        if testMode, o.now == nil { clk = .wall(testNow) }
        let override: Zone?
        switch zone(o.zone) { case .success(let z): override = z; case .failure(let f): return .failure(f) }
        let def = testMode ? (Zone(identifier: testZone) ?? Zone.utc) : machineZone
        let engine = Engine(store: store, clock: clk, defaultZone: def, zoneOverride: override, uids: testMode ? .seeded(testUIDSeed) : .random)
        let session = Session(engine: engine, format: o.format, commits: commits)
        // A bulk delete waits for a yes unless --yes gave it in advance (docs/SCRIPTS.md).
        session.bulkDelete = o.yes ? .run : .ask
        session.pathPolicy = pathPolicy
        session.syncConnector = KeptMain.syncConnector
        // The width listings fit, colour, pretty JSON (docs/OUTPUT.md, "Width and colour").
        session.display = o.display(testMode: testMode, TerminalInfo.current())
        if !testMode { session.measureWidth = o.width.measure() }
        return .success(session)
    }
}
