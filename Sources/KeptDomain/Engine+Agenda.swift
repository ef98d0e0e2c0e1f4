// The agenda (docs/AGENDA.md, R-AGENDA-1…): the account days of a range, each with the tasks
// and events that meet it. A timed task is a moment at its time (R-AGENDA-1), a dated task
// without a time sits under Due this day (R-AGENDA-2), open tasks due before today are carried
// into today's Overdue group until done (R-AGENDA-3), a repeating task's later occurrences
// show on their days as upcoming, with the dates completing it would make (R-AGENDA-4), and
// what was done today ends today. Nothing here writes: the agenda only reads.
//
// Only what the days need is read: the open tasks due before the range ends (overdue ones,
// those in the range, and the repeating tasks whose series reach into it) and what was done
// today, through the store's narrowed read (a SQL backend reads those rows alone).

import KeptRules

/// What `agenda` asks for: `days` account days from `first`, the tasks a filter keeps.
public struct AgendaRequest: Sendable {
    public var first: CivilDate
    public var days: Int
    public var filter: FilterExpr?

    public init(first: CivilDate, days: Int, filter: FilterExpr? = nil) {
        self.first = first
        self.days = days
        self.filter = filter
    }
}

/// One entry of an agenda day.
public struct AgendaEntry: Sendable {
    public enum What: Sendable {
        /// A task of the store, on its due.
        case task(Task)
        /// A later occurrence of a repeating task, not created: the task as the occurrence
        /// completing the ones before would make it (its due is the occurrence's).
        case upcoming(Task)
        case event(CalendarEvent)
    }

    public var what: What
    /// Where a timed entry sits on its day: a task's due instant, an event's start (or the
    /// day's start, for an event that began on an earlier day). Nil under Due this day.
    public var at: Instant?

    public init(_ what: What, at: Instant? = nil) {
        self.what = what
        self.at = at
    }

    /// The task of a task entry or of an upcoming occurrence.
    public var task: Task? {
        switch what {
        case .task(let t), .upcoming(let t): return t
        case .event: return nil
        }
    }
}

/// One account day of an agenda.
public struct AgendaDay: Sendable {
    public var date: CivilDate
    /// Today only: the first open tasks due before today that no earlier day of the agenda
    /// shows, by due (R-AGENDA-3); `overdueCount` is how many there are.
    public var overdue: [Task] = []
    public var overdueCount = 0
    /// Dated tasks without a time, their upcoming occurrences, and all-day events (R-AGENDA-2).
    public var dueThisDay: [AgendaEntry] = []
    /// Timed tasks as moments, upcoming timed occurrences and timed events, in time order (R-AGENDA-1).
    public var timed: [AgendaEntry] = []
    /// Today only: what was done today (R-VIEW-2).
    public var done: [Task] = []

    public init(date: CivilDate) { self.date = date }

    public var isEmpty: Bool { overdueCount == 0 && dueThisDay.isEmpty && timed.isEmpty && done.isEmpty }
}

/// The agenda of a range of days.
public struct Agenda: Sendable {
    public var days: [AgendaDay]
    public var today: CivilDate
    /// The filter, when one was given.
    public var filter: FilterExpr?
    /// The tasks the days would show without the filter that it left out (R-AGENDA-8).
    public var leftOut: Int

    public var first: CivilDate? { days.first?.date }
    public var last: CivilDate? { days.last?.date }
    public var isEmpty: Bool { days.allSatisfy(\.isEmpty) }
}

extension Engine {
    /// The most occurrences of one series an agenda shows (an every-minute rule would fill a
    /// week with 10,080); docs/AGENDA.md.
    public static let agendaOccurrencesPerSeries = 500
    /// The most dates of one series an agenda walks through (a series that restarts on each
    /// completion is walked from its open occurrence to the agenda's days).
    public static let agendaSeriesSteps = 20_000
    /// The most carried overdue tasks an agenda lists (the group says how many there are).
    public static let agendaOverdueRows = 10

    /// The agenda of `request.days` account days from `request.first`: the tasks the filter keeps
    /// and `events` (a connected calendar's, already expanded) placed on the days they meet.
    /// Reads only; never writes.
    public func agenda(_ request: AgendaRequest, events: [CalendarEvent]) throws(RegexBudgetError) -> Agenda {
        let fc = filterContext
        let todayN = fc.today
        let firstN = request.first.dayNumber
        let dayCount = max(1, request.days)
        let lastN = firstN + dayCount - 1
        let ds = store.settings.day.dayStart
        let open = FilterExpr.term(.status(.open))
        var days = (0..<dayCount).map { AgendaDay(date: request.first.adding(days: $0)) }
        func slot(_ d: Int) -> Int? { d >= firstN && d <= lastN ? d - firstN : nil }
        let todaySlot = slot(todayN)
        var leftOut = 0
        // Carried into today's Overdue group until done (R-AGENDA-3): the open tasks due before
        // the first day (which is not after today), the first rows by due and how many there are.
        if let k = todaySlot {
            let carried = FilterExpr.and([open, .term(.window(DayWindow(start: Int.min, end: firstN)))])
            let shown = try select(request.filter.map { .and([carried, $0]) } ?? carried, order: [(.due, false)], limit: Engine.agendaOverdueRows)
            days[k].overdue = shown.ordered
            days[k].overdueCount = shown.matched
            if request.filter != nil { leftOut += max(0, try count(carried).matched - shown.matched) }
        }
        // The days' tasks: open ones due on them, the repeating ones due from today to the
        // first day (whose series reach into them), and what was done today. A repeating task
        // carried as overdue waits for its completion, which makes its next occurrence
        // (R-AGENDA-4): its series is not read on. Read without the filter, which is decided
        // on the same columns, so what it leaves out is counted truly (R-AGENDA-8).
        var parts: [FilterExpr] = [.and([open, .term(.window(DayWindow(start: firstN, end: lastN + 1)))])]
        if firstN > todayN { parts.append(.and([open, .term(.window(DayWindow(start: todayN, end: firstN))), .term(.repeating)])) }
        if todaySlot != nil { parts.append(.term(.doneToday)) }
        let base = FilterExpr.or(parts)
        let relational = request.filter.map { CompiledFilter.uses($0, Engine.relational) } ?? false
        var narrow = NarrowRequest(expr: base, dayStart: ds)
        if let f = request.filter {
            narrow.withText = CompiledFilter.needsText(f)
            narrow.withSearch = CompiledFilter.needsSearch(f)
        }
        let index = (relational ? nil : store.narrowedColumns(narrow, fc))?.index
            ?? store.columns(dayStart: ds, withText: narrow.withText, withSearch: narrow.withSearch)
        let rows = try matchingRows(base, index, fc)
        let kept: Set<Int>? = try request.filter.map { f throws(RegexBudgetError) in Set(try matchingRows(.and([base, f]), index, fc)) }
        for r in rows {
            guard let t = store.task(atRow: r) else { continue }
            if let kept, !kept.contains(r) {
                if shows(t, fc, firstN: firstN, lastN: lastN) { leftOut += 1 }
                continue
            }
            if t.status == .done {
                if let k = todaySlot { days[k].done.append(t) }
                continue
            }
            guard t.isOpen, let due = t.due else { continue }
            let d = fc.day(of: due)
            if let k = slot(d) { place(t, due, on: k, &days, fc, upcoming: false) }
            // Later occurrences of a series, on their days (R-AGENDA-4); a carried one's wait.
            if t.repeatRule != nil, d >= todayN {
                for o in upcoming(t, from: firstN, through: lastN, fc) {
                    guard let od = o.due, let k = slot(fc.day(of: od)) else { continue }
                    place(o, od, on: k, &days, fc, upcoming: true)
                }
            }
        }
        // Events on every day they meet: all-day ones with the dated items, timed ones at their
        // start, or at the day's start on a later day an overnight one meets. The instants the
        // days start at are found once.
        let starts = (0...dayCount).map { fc.start(ofDay: firstN + $0) }
        for e in events {
            switch e.when {
            case .allDay(let a, let b):
                var d = max(a.dayNumber, firstN)
                while d <= min(b.dayNumber, lastN) {
                    if let k = slot(d) { days[k].dueThisDay.append(AgendaEntry(.event(e))) }
                    d += 1
                }
            case .timed(let s, let end):
                // The first day whose end is after the start, found among the days' starts.
                var k = starts.partitioningIndex(where: { $0 > s }) - 1
                if k < 0 { k = 0 }
                while k < dayCount {
                    let lo = starts[k], hi = starts[k + 1]
                    if s >= hi { k += 1; continue }
                    // An event meets a day it overlaps; one of no length, the day it starts on.
                    guard end > lo || (s == end && s >= lo) else { break }
                    days[k].timed.append(AgendaEntry(.event(e), at: max(s, lo)))
                    k += 1
                }
            }
        }
        for k in days.indices {
            days[k].dueThisDay = Engine.ordered(days[k].dueThisDay)
            days[k].timed = Engine.ordered(days[k].timed)
            days[k].done.sort { ($0.completedAt ?? $0.modifiedAt, $0.id) < ($1.completedAt ?? $1.modifiedAt, $1.id) }
        }
        return Agenda(days: days, today: CivilDate(dayNumber: todayN), filter: request.filter, leftOut: leftOut)
    }

    /// The terms whose answer for a task depends on other tasks: a filter with one is decided
    /// over every task's columns.
    static func relational(_ t: FilterTerm) -> Bool {
        switch t {
        case .hasSubtasks, .blocked, .isSubtask, .blocking: return true
        default: return false
        }
    }

    /// Whether a task of the days' reading shows on the agenda of days `firstN…lastN`: done
    /// today with today among them, carried overdue, due on one of them, or a series with an
    /// occurrence on one.
    private func shows(_ t: Task, _ fc: FilterContext, firstN: Int, lastN: Int) -> Bool {
        let inRange = { (d: Int) in d >= firstN && d <= lastN }
        if t.status == .done { return inRange(fc.today) }
        guard t.isOpen, let due = t.due else { return false }
        let d = fc.day(of: due)
        if inRange(d) { return true }
        guard t.repeatRule != nil, d >= fc.today else { return false }
        return upcoming(t, from: firstN, through: lastN, fc).contains { o in o.due.map { inRange(fc.day(of: $0)) } ?? false }
    }

    /// A task on one day of the agenda: at its moment, or under Due this day.
    private func place(_ t: Task, _ due: Due, on k: Int, _ days: inout [AgendaDay], _ fc: FilterContext, upcoming: Bool) {
        let what: AgendaEntry.What = upcoming ? .upcoming(t) : .task(t)
        if let time = due.time {
            days[k].timed.append(AgendaEntry(what, at: fc.instant(due.date, time)))
        } else {
            days[k].dueThisDay.append(AgendaEntry(what))
        }
    }

    /// The later occurrences of a repeating task on days `firstDay…lastDay`, as completing
    /// each on its own day would make them: the first is the one completing the task now
    /// makes (R-REP-3), each next the one completing the one before on its day makes. A
    /// series that does not restart on completion makes its own dates that way, so one far
    /// ahead of the days is found from them directly. At most `agendaOccurrencesPerSeries`.
    public func upcoming(_ t: Task, from firstDay: Int = Int.min, through lastDay: Int, _ fc: FilterContext) -> [Task] {
        guard let spec0 = t.repeatRule, let rule = spec0.rule, let due0 = t.due else { return [] }
        var out: [Task] = []
        let (zone, weekStart) = (self.zone, self.weekStart)
        var next = spec0.next(afterCompleting: due0, at: nowLocal, today: today, zone: zone, weekStart: weekStart).map { (due: $0.due, spec: $0.spec) }
        if let n = next, !rule.afterCompletion, firstDay != Int.min, fc.day(of: n.due) < firstDay - 2 {
            // The series' first date from two days before the first day on (a day start may
            // put an early time on the day before).
            let from = CivilDateTime(date: CivilDate(dayNumber: firstDay - 2), time: WallTime(unchecked: WallTime.minutesPerDay - 1))
            next = spec0.nextOccurrence(after: from, time: due0.time, weekStart: weekStart, zone: zone).map { (due: $0, spec: spec0) }
        }
        var steps = 0
        while let n = next, out.count < Engine.agendaOccurrencesPerSeries, steps < Engine.agendaSeriesSteps {
            let day = fc.day(of: n.due)
            if day > lastDay { break }
            steps += 1
            if day >= firstDay {
                var o = moved(t, to: n.due)
                o.repeatRule = n.spec
                o.heldUntil = nil
                o.notTodayOn = nil
                o.status = .open
                o.completedAt = nil
                out.append(o)
            }
            next = n.spec.next(afterCompleting: n.due, at: RepeatSpec.moment(n.due), today: CivilDate(dayNumber: day), zone: zone, weekStart: weekStart)
                .map { (due: $0.due, spec: $0.spec) }
        }
        return out
    }

    /// A task's due as minutes, all-day after the timed ones of its day.
    static func dueKey(_ t: Task) -> Int {
        t.due.map { $0.date.dayNumber * 1441 + ($0.time?.minuteOfDay ?? 1440) } ?? Int.max
    }

    /// A day's entries in `agendaOrder`, sorted by keys (an entry is large to move).
    static func ordered(_ es: [AgendaEntry]) -> [AgendaEntry] {
        guard es.count > 1 else { return es }
        struct Key: Comparable {
            var at: Int64, rank: Int, id: Int, due: Int, title: String, calendar: String, k: Int
            static func < (a: Key, b: Key) -> Bool {
                if (a.at, a.rank, a.id, a.due) != (b.at, b.rank, b.id, b.due) { return (a.at, a.rank, a.id, a.due) < (b.at, b.rank, b.id, b.due) }
                return (a.title, a.calendar, a.k) < (b.title, b.calendar, b.k)
            }
        }
        let keys = es.enumerated().map { k, e -> Key in
            let at = e.at?.seconds ?? Int64.min
            switch e.what {
            case .task(let t), .upcoming(let t): return Key(at: at, rank: 0, id: t.id, due: dueKey(t), title: "", calendar: "", k: k)
            case .event(let ev): return Key(at: at, rank: 1, id: 0, due: 0, title: ev.title, calendar: ev.calendar, k: k)
            }
        }
        return keys.sorted().map { es[$0.k] }
    }

    /// The order of a day's entries: by time, then tasks (by id, an occurrence after its task's
    /// earlier ones) before events (by title, then calendar).
    static func agendaOrder(_ a: AgendaEntry, _ b: AgendaEntry) -> Bool {
        if let x = a.at, let y = b.at, x != y { return x < y }
        switch (a.task, b.task) {
        case (let s?, let t?):
            if s.id != t.id { return s.id < t.id }
            return dueKey(s) < dueKey(t)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil):
            guard case .event(let e) = a.what, case .event(let f) = b.what else { return false }
            return (e.title, e.calendar) < (f.title, f.calendar)
        }
    }
}

// MARK: openings

/// A free stretch of today: from `start` up to `end` (R-AGENDA-7).
public struct FreeStretch: Sendable, Equatable {
    public var start: Instant
    public var end: Instant
    public init(start: Instant, end: Instant) {
        self.start = start
        self.end = end
    }
    public var minutes: Int { Int(start.seconds(until: end) / 60) }
}

/// The openings of one Top 3 pick: the times it could start, each with the stretch it fits.
public struct PickOpenings: Sendable {
    public var task: Task
    /// The minutes the pick needs: its estimate, or 30 without one.
    public var minutes: Int
    public var estimated: Bool
    /// Suggested start times, in order.
    public var starts: [Instant]
    /// How many suggestions there were before the count cut them.
    public var total: Int
}

/// What `plan openings` suggests: today's free stretches and each pick's openings. Nothing
/// is written.
public struct PlanOpenings: Sendable {
    public var from: Instant
    public var until: Instant
    public var free: [FreeStretch]
    public var picks: [PickOpenings]
}

extension Engine {
    /// Openings shorter than this run no full-hour choices: a stretch of at least two hours
    /// offers the full hours inside it as well as its own start (docs/AGENDA.md).
    public static let longStretchMinutes = 120
    /// Minutes a pick without an estimate needs.
    public static let defaultOpeningMinutes = 30

    /// Today's free stretches from now until the day ends, between `events` and timed tasks,
    /// and for each of today's Top 3 picks the starts where its estimate fits, at most `per`
    /// each. The Top 3 is the plan's, read without storing a snapshot; nothing is written.
    public func openings(per: Int, events: [CalendarEvent]) -> PlanOpenings {
        let fc = filterContext
        let from = max(now, fc.todayStart)
        let until = fc.start(ofDay: fc.today + 1)
        // What is busy: today's timed events and timed open tasks, as moments of their
        // estimate (30 minutes without one).
        var busy: [(Instant, Instant)] = []
        for e in events {
            if case .timed(let s, let f) = e.when, f > from, s < until { busy.append((s, max(f, s))) }
        }
        let view = planView(nil, limit: 0, persist: false)
        let picks = view.plan.top3.compactMap { store.task(atRow: $0.row) }
        let window = FilterExpr.and([.term(.status(.open)), .term(.hasTime), .term(.window(DayWindow(start: fc.today, end: fc.today + 1)))])
        for t in (try? select(window).matched) ?? [] {
            guard let d = t.due, let time = d.time else { continue }
            let s = fc.instant(d.date, time)
            busy.append((s, s.adding(minutes: t.estimate?.minutes ?? Engine.defaultOpeningMinutes)))
        }
        busy.sort { $0.0 < $1.0 }
        var free: [FreeStretch] = []
        var cursor = from
        for (s, f) in busy {
            if s > cursor, cursor < until { free.append(FreeStretch(start: cursor, end: min(s, until))) }
            cursor = max(cursor, f)
        }
        if cursor < until { free.append(FreeStretch(start: cursor, end: until)) }
        let ps = picks.filter(\.isOpen).map { t -> PickOpenings in
            let need = t.estimate?.minutes ?? Engine.defaultOpeningMinutes
            var starts: [Instant] = []
            for f in free where f.minutes >= need {
                starts.append(f.start)
                guard f.minutes >= Engine.longStretchMinutes else { continue }
                // Full hours inside a long stretch, where the pick still fits before it ends.
                var h = nextFullHour(after: f.start)
                while h.adding(minutes: need) <= f.end {
                    if h > f.start { starts.append(h) }
                    h = nextFullHour(after: h)
                }
            }
            return PickOpenings(task: t, minutes: need, estimated: t.estimate != nil, starts: Array(starts.prefix(max(0, per))), total: starts.count)
        }
        return PlanOpenings(from: from, until: until, free: free, picks: ps)
    }

    /// The first instant after `i` at which the account zone's clock shows a full hour: an
    /// hour of real time after the last one, so the hour the spring skips is not offered and
    /// the autumn's repeated hour is offered twice.
    func nextFullHour(after i: Instant) -> Instant {
        let l = zone.local(at: i)
        let intoMinute = ((i.seconds % 60) + 60) % 60
        let h = i.adding(seconds: Int64((60 - l.time.minute) * 60) - intoMinute)
        if zone.local(at: h).time.minute == 0 { return h }
        // An offset that is not whole hours away from the last one: the clock's next hour.
        let (t, off) = l.time.adding(minutes: 60 - l.time.minute)
        let w = zone.instant(for: CivilDateTime(date: l.date.adding(days: off), time: t))
        return w > i ? w : i.adding(minutes: 60)
    }
}

extension Array where Element == Instant {
    /// The first index whose instant satisfies `p`, in an array where it holds from some index on.
    func partitioningIndex(where p: (Instant) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if p(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
