// The views of R-VIEW-1 and R-VIEW-2, the sort orders of `order by` and the due groups of
// R-VIEW-4, as queries with typed results: tasks in order, which the session renders. A view
// reads one index of the store's columns, with no text, or on a backend that narrows (SQL) the
// rows each of its parts may match.

import KeptRules

/// What a view holds (R-VIEW-1).
public struct ViewList {
    public var view: ListView
    /// The rows in order, at most the limit: Today and Next 7 days list overdue tasks first.
    public var tasks: [Task]
    /// How many rows the view has before its limit.
    public var count: Int
    /// What was done today (R-VIEW-2): the Done section of Today and Next 7 days; empty for
    /// the other views (Done today's own rows are `tasks`).
    public var done: [Task]
}

extension Engine {
    /// A view's tasks. Views read by date unless an order is given (Archived and Done today
    /// in creation order).
    public func view(_ v: ListView, order given: SortOrder, limit: Int?) -> ViewList {
        let fc = filterContext
        var order = given
        if order.isEmpty, v != .archived, v != .doneToday { order = [(.due, false)] }
        let ds = store.settings.day.dayStart
        // A backend that narrows (SQL) reads only the rows each part may match (issue 34, item
        // 5), each built at once from the index it handed out; otherwise one index of every
        // task's columns for all the view's parts. No part reads text.
        var whole: TaskIndex? = nil
        func match(_ e: FilterExpr) -> [Task] {
            if whole == nil, let n = store.narrowedColumns(NarrowRequest(expr: e, dayStart: ds), fc) {
                do throws(RegexBudgetError) {
                    return sorted(try matchingRows(e, n.index, fc).compactMap { store.task(atRow: $0) }, by: order)
                } catch {
                    // No part of a view has a pattern; the whole index answers as before.
                }
            }
            let index = whole ?? store.columns(dayStart: ds, withText: false, withSearch: false)
            whole = index
            return sorted(matching(e, index, fc), by: order)
        }
        // With a limit, each part's first rows in the view's order and how many it has: a
        // backend that narrows reads only those rows, where the order has columns (`select`).
        var left = limit.map { max(0, $0) }
        var rows: [Task] = []
        var count = 0
        func part(_ e: FilterExpr) {
            if let n = left, whole == nil {
                do throws(RegexBudgetError) {
                    let s = try select(e, order: order, limit: n)
                    rows += s.ordered
                    count += s.matched
                    left = n - s.ordered.count
                    return
                } catch {
                    // No part of a view has a pattern; the whole index answers as before.
                }
            }
            let r = match(e)
            count += r.count
            if let n = left {
                rows += r.prefix(n)
                left = n - min(n, r.count)
            } else {
                rows += r
            }
        }
        let open = FilterExpr.term(.status(.open))
        var done: [Task] = []
        switch v {
        case .today, .next7:
            // R-VIEW-1: overdue first, then what is due in the window; R-VIEW-2: what was done today.
            let days = v == .today ? 1 : 7
            let w = FilterExpr.term(.window(DayWindow(start: fc.today, end: fc.today + days)))
            part(.and([open, .term(.overdue)]))
            part(.and([open, w, .not(.term(.overdue))]))
            done = match(.term(.doneToday))
        case .tomorrow:
            part(.and([open, .term(.window(DayWindow(start: fc.today + 1, end: fc.today + 2)))]))
        case .all:
            part(open)
        case .archived:
            part(.term(.status(.archived)))
        case .doneToday:
            part(.term(.doneToday))
        }
        return ViewList(view: v, tasks: rows, count: count, done: done)
    }

    /// Tasks in a sort order, key by key, ties on id; in creation order (ties on id) without one.
    /// A title is folded once a task, not at each comparison (a million titles sorted folded
    /// some 40 million).
    public func sorted(_ tasks: [Task], by order: SortOrder) -> [Task] {
        guard !order.isEmpty else { return TaskOrder.creation(tasks) }
        let titles: [String] = order.contains(where: { $0.0 == .title }) ? tasks.map { SearchText.fold($0.title) } : []
        return tasks.indices.sorted { i, j in
            let a = tasks[i], b = tasks[j]
            for (key, desc) in order {
                let r: Int
                switch key {
                case .due:
                    // Tasks without a due come last, whichever way.
                    let x = a.due.map { $0.date.dayNumber * 1440 + ($0.time?.minuteOfDay ?? 1440) } ?? Int.max
                    let y = b.due.map { $0.date.dayNumber * 1440 + ($0.time?.minuteOfDay ?? 1440) } ?? Int.max
                    if x == y { continue }
                    if x == Int.max || y == Int.max { return x < y }
                    r = x < y ? -1 : 1
                case .priority: r = a.priority == b.priority ? 0 : (a.priority < b.priority ? -1 : 1)
                case .created: r = a.createdAt == b.createdAt ? 0 : (a.createdAt < b.createdAt ? -1 : 1)
                case .title:
                    let x = titles[i], y = titles[j]
                    r = x == y ? 0 : (x < y ? -1 : 1)
                case .id: r = a.id == b.id ? 0 : (a.id < b.id ? -1 : 1)
                }
                if r != 0 { return desc ? r > 0 : r < 0 }
            }
            return a.id < b.id
        }.map { tasks[$0] }
    }

    /// The due groups of R-VIEW-4, in order, each with its tasks in the order given; empty
    /// groups are left out.
    public func dueGroups(_ tasks: [Task]) -> [(group: DueGroup, tasks: [Task])] {
        var buckets: [DueGroup: [Task]] = [:]
        let fc = filterContext
        let weekEnd = store.settings.day.endOfWeek(containing: today).dayNumber
        for t in tasks { buckets[DueGroup.of(t, fc, weekEnd: weekEnd), default: []].append(t) }
        return DueGroup.allCases.compactMap { g in buckets[g].flatMap { $0.isEmpty ? nil : (g, $0) } }
    }
}
