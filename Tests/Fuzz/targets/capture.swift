// Fuzz target: a quick-add line (plain and natural capture) and the same words as a date
// phrase, at the fixed clock; every date that comes out lies in 0001-9999, and every token
// range lies inside the line.

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let line = bytes(data + 1, size - 1)
    var settings = Settings()
    if data[0] & 1 != 0 { _ = settings.set("date-order", to: "dmy") }
    if data[0] & 2 != 0 { _ = settings.set("day-start", to: "04:00") }
    if data[0] & 4 != 0 { _ = settings.set("week-start", to: "sunday") }
    let ctx = DateContext(now: fuzzNow, today: settings.day.today(at: fuzzNow), settings: settings, zone: fuzzZone)
    switch QuickAdd.parse(bytes: line, in: ctx, natural: data[0] & 8 != 0) {
    case .success(let d):
        for t in d.tokens where t.start < 0 || t.end > line.count || t.start > t.end { violated("token outside the line: \(t)") }
        if let c = d.completion, c.start < 0 || c.end > line.count { violated("completion outside the line") }
        if d.title.isEmpty { violated("a draft without a title") }
        _ = d.due.map { check($0.date) }
    case .failure(let e):
        if e.start < 0 || e.end > line.count || e.start > e.end { violated("error range outside the line: \(e.start)..<\(e.end)") }
        if Catalog.summary(of: e.code.rawValue) == nil { violated("a code not in the catalog: \(e.code)") }
    }
    let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    switch DatePhrase.resolve(words, in: ctx, explain: data[0] & 16 != 0) {
    case .success(let (r, used)):
        if used < 1 || used > words.count { violated("a phrase of \(used) words out of \(words.count)") }
        check(r.due.date)
    case .failure(let e):
        if Catalog.summary(of: e.code.rawValue) == nil { violated("a code not in the catalog: \(e.code)") }
    }
    return 0
}

/// A date Kept made must be a real one of the calendar.
func check(_ d: CivilDate) {
    if CivilDate(year: d.year, month: d.month, day: d.day) == nil { violated("not a date: \(d)") }
}
