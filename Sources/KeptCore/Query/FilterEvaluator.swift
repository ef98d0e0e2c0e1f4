// Checks tasks against a filter, on calendar fields: a date-only due is a whole account day, so
// a task due today without a time is not overdue until the day ends, and a timed due is
// overdue once its time passes; a finished task is never overdue (R-VIEW-3).

/// What a filter is evaluated against: now, today and the day start, as plain integers.
public struct FilterContext: Sendable {
    /// The account's today, as a day number.
    public var today: Int
    /// Now as civil minutes (day number × 1440 + minute of day).
    public var nowMinute: Int
    /// The day start in minutes; a timed due belongs to the account day it falls in (R-DAY-2).
    public var dayStart: Int
    public var now: Instant
    var todayStartSeconds: Int64 = 0

    public init(_ ctx: DateContext, now: Instant) {
        self.today = ctx.today.dayNumber
        self.nowMinute = ctx.now.date.dayNumber * 1440 + ctx.now.time.minuteOfDay
        self.dayStart = ctx.settings.day.dayStart.minuteOfDay
        self.now = now
    }

    /// The account day a due belongs to.
    @inline(__always)
    func day(of due: Due) -> Int {
        guard let t = due.time else { return due.date.dayNumber }
        let m = due.date.dayNumber * 1440 + t.minuteOfDay - dayStart
        return m >= 0 ? m / 1440 : (m - 1439) / 1440
    }
}

/// Evaluates filters.
public struct FilterEvaluator {
    public let expr: FilterExpr
    public let context: FilterContext
    let needsText: Bool

    public init(_ expr: FilterExpr, context: FilterContext) {
        self.expr = expr
        self.context = context
        self.needsText = FilterEvaluator.usesText(expr)
    }

    static func usesText(_ e: FilterExpr) -> Bool {
        switch e {
        case .term(.words): return true
        case .term(.saved(_, let e)): return usesText(e)
        case .term: return false
        case .and(let xs), .or(let xs): return xs.contains(where: usesText)
        case .not(let x): return usesText(x)
        }
    }

    /// Whether a task matches; an open-only scope applies unless the filter names a status.
    public func matches(_ t: Task) -> Bool {
        let hay = needsText ? SearchText.haystack(t) : ""
        return eval(expr, t, hay)
    }

    func eval(_ e: FilterExpr, _ t: Task, _ hay: String) -> Bool {
        switch e {
        case .term(let x): return term(x, t, hay)
        case .and(let xs): return xs.allSatisfy { eval($0, t, hay) }
        case .or(let xs): return xs.contains { eval($0, t, hay) }
        case .not(let x): return !eval(x, t, hay)
        }
    }

    func term(_ x: FilterTerm, _ t: Task, _ hay: String) -> Bool {
        let c = context
        switch x {
        case .tag(let name): return t.tags.contains { $0.lowercased() == name.lowercased() }
        case .project(let name): return t.project?.lowercased() == name.lowercased()
        case .area(let name): return t.area.map(AreaName.key) == AreaName.key(name)
        case .note(let n): return t.notes.contains { $0.lowercased() == n.lowercased() }
        case .priority(let cmp, let p): return cmp.holds(t.priority, p)
        case .window(let w):
            guard let d = t.due else { return false }
            let day = c.day(of: d)
            return day >= w.start && day < w.end
        case .overdue:
            // R-VIEW-3: a finished task is never overdue.
            guard t.isOpen, let d = t.due else { return false }
            if let time = d.time { return d.date.dayNumber * 1440 + time.minuteOfDay < c.nowMinute }
            return d.date.dayNumber < c.today
        case .noDue: return t.due == nil
        case .hasDue: return t.due != nil
        case .hasTime: return t.due?.time != nil
        case .repeating: return t.repeatRule != nil && t.isOpen
        case .repeatFrequency(let f): return t.repeatRule?.rule?.frequency == f
        case .status(let s):
            switch s {
            case .open: return t.isOpen
            case .done: return t.status == .done
            case .archived: return t.status == .archived
            case .any: return true
            case .named(let n): return t.status.rawValue == n
            }
        case .doneToday:
            guard t.status == .done, let at = t.completedAt else { return false }
            return at >= doneTodayStart
        case .held:
            guard let h = t.heldUntil else { return false }
            return h.dayNumber > c.today
        case .due(let cmp, let day):
            guard let d = t.due else { return false }
            return cmp.holds(c.day(of: d), day)
        case .estimate(let cmp, let m):
            guard let e = t.estimate else { return false }
            return cmp.holds(e.minutes, m)
        case .created(let cmp, let i): return cmp.holds(t.createdAt, i)
        case .words(let ws): return ws.allSatisfy { hay.contains($0) }
        case .regex(let field, let re):
            let text = field == .title ? t.title : (t.description ?? "")
            return re.matches(text)
        case .saved(_, let e): return eval(e, t, hay)
        }
    }

    /// The instant today began, for `done today` (R-VIEW-2): set by the caller's context.
    var doneTodayStart: Instant { context.todayStart }
}

extension FilterContext {
    /// The instant the account day began; filled by the session (zone-dependent).
    public var todayStart: Instant {
        get { Instant(seconds: todayStartSeconds) }
        set { todayStartSeconds = newValue.seconds }
    }
}

/// Area names compare without case or spacing (R-FIL-6).
public enum AreaName {
    public static func key(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
