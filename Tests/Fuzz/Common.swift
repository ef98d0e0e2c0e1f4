// What every fuzz target shares: the input as text, a fixed clock and zone, a small store to
// run against, and a failure that libFuzzer reports as a crash (with the input saved).
// Compiled into each target with the target's own file (Tests/Fuzz/fuzz.sh).

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

#if canImport(Glibc)
import Glibc
#endif

/// The input's bytes.
func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// The input as text, bytes that are not UTF-8 replaced (the front ends refuse those with E0003
/// before anything else reads them).
func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// A property that does not hold: printed, then the process aborts so libFuzzer keeps the input.
func violated(_ what: String) -> Never {
    let line = "fuzz property violated: \(what)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

/// Monday 2026-06-15 09:00 in Europe/Berlin, the test mode's clock.
let fuzzNow = CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 15) ?? .earliest, time: WallTime(hour: 9, minute: 0) ?? .midnight)
let fuzzZone = Zone(identifier: "Europe/Berlin") ?? Zone.utc

/// The date context of that clock with default settings.
let fuzzContext = DateContext(now: fuzzNow, today: fuzzNow.date, settings: Settings(), zone: fuzzZone)

/// A small store: a project, tasks with dues, tags, a repeat, a subtask, a done task, a saved filter.
let fuzzStore: Store = {
    let text = """
    {"format": "kept-store", "version": 1, "nextId": 7,
     "settings": {"zone": "Europe/Berlin"},
     "projects": [{"name": "Home", "statuses": ["In review"]}, {"name": "Work"}],
     "areas": [{"name": "Life"}],
     "filters": [{"name": "Errands", "filter": "#errand", "starred": true}, {"name": "Soon", "filter": "due < fri or filter:Errands"}],
     "tasks": [
      {"id": 1, "title": "Pay rent", "status": "open", "due": {"date": "2026-06-15", "time": null}, "priority": "high", "project": "Home", "createdAt": "2026-06-01T08:00:00Z"},
      {"id": 2, "title": "Buy stamps", "status": "open", "tags": ["errand"], "estimate": {"minutes": 10, "source": "user"}, "createdAt": "2026-06-02T08:00:00Z"},
      {"id": 3, "title": "Water the plants", "status": "done", "completedAt": "2026-06-14T17:00:00Z", "createdAt": "2026-06-10T09:00:00Z"},
      {"id": 4, "title": "Stand-up", "status": "open", "due": {"date": "2026-06-16", "time": "09:30"}, "repeat": {"text": "every weekday at 9:30am", "anchor": "2026-06-16"}, "project": "Work", "createdAt": "2026-06-01T08:00:00Z"},
      {"id": 5, "title": "Call the dentist about 3 teeth", "status": "waiting", "parent": 1, "reminders": [{"at": "2026-06-15T15:00"}], "createdAt": "2026-06-03T08:00:00Z"},
      {"id": 6, "title": "Review budget", "status": "in review", "project": "Home", "description": "numbers\\nand more", "createdAt": "2026-06-04T08:00:00Z"}
     ]}
    """
    return (try? StoreCodec.decode(Array(text.utf8)).get()) ?? Store()
}()

/// A session on the small store, at the fixed clock.
func fuzzSession(format: OutputFormat = .text) -> Session {
    Session(store: JSONStore(memory: fuzzStore), clock: .wall(fuzzNow), defaultZone: fuzzZone, format: format)
}
