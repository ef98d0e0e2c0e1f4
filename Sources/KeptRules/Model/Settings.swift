// The account's settings: day start, week start, clock, date order, named times of day and the
// zone. Each setting is one row of `Settings.specs`, so `set`, `help` and completion agree.

/// How `5/6` reads: May 6 or 5 June.
public enum DateOrder: String, Sendable, CaseIterable {
    case mdy, dmy
}

/// What `next fri` means (docs/CAPTURE.md): the coming Friday, or the Friday of next week.
public enum NextWeekday: String, Sendable, CaseIterable {
    case coming
    case followingWeek = "following-week"
}

/// How much a row shows: `simple` (the default) or `detailed`, which adds the High and
/// Critical priority words and the urgency score (R-PLAN-4).
public enum RowDetail: String, Sendable, CaseIterable {
    case simple, detailed
}

/// The account settings.
public struct Settings: Sendable, Equatable {
    public var day = DayRules()
    public var dateOrder: DateOrder = .mdy
    public var nextWeekday: NextWeekday = .coming
    public var morning = WallTime(hour: 9, minute: 0) ?? .midnight
    public var afternoon = WallTime(hour: 15, minute: 0) ?? .midnight
    public var evening = WallTime(hour: 18, minute: 0) ?? .midnight
    public var tonight = WallTime(hour: 20, minute: 0) ?? .midnight
    /// The weights of the plan's urgency score (docs/PLAN.md).
    public var urgency = UrgencyWeights()
    /// Quick wins: a user-set estimate at or under this many minutes (R-PLAN-3).
    public var quickWinMinutes = 15
    public var rowDetail: RowDetail = .simple
    /// R-CAL-4: one meeting on two connected calendars shows once in the agenda.
    public var mergeMeetings = true
    /// The account zone's IANA name; nil means the machine's zone.
    public var zone: String?
    /// Settings this version does not know, kept as written (R-STORE-1).
    public var extra = JSONObject()

    public init() {}

    /// The kind of value a setting takes; the catalog words it (`a time like 04:00`).
    public enum ValueKind: Sendable, Equatable {
        /// A time of day; `like` is the example given.
        case time(like: WallTime)
        case weekday
        case hourCycle
        case dateOrder
        case nextWeekday
        case zone
        case duration
        case rowDetail
        /// `on` or `off`.
        case onOff
        /// An urgency weight, from `minimum` to 1000.
        case weight(minimum: Double)
    }

    /// One setting: its key, what it takes, and how to read and write it.
    public struct Spec: Sendable {
        public let key: String
        public let values: ValueKind
        public let summary: String
        package let get: @Sendable (Settings) -> String
        /// Returns nil when the value is not allowed.
        package let set: @Sendable (inout Settings, String) -> Bool
        /// False for settings a store file holds only when they differ from the default.
        package var storedWhenDefault = true
    }

    public static let specs: [Spec] = [
        Spec(key: "day-start", values: .time(like: WallTime(unchecked: 4 * 60)), summary: "when a new day begins (R-DAY-2)",
             get: { $0.day.dayStart.iso },
             set: { s, v in guard let t = parseTime(v) else { return false }; s.day.dayStart = t; return true }),
        Spec(key: "week-start", values: .weekday, summary: "the first day of a week (R-DAY-5)",
             get: { $0.day.weekStart.name.lowercased() },
             set: { s, v in guard let w = Weekday.allCases.first(where: { $0.name.lowercased() == v.lowercased() || $0.shortName.lowercased() == v.lowercased() }) else { return false }; s.day.weekStart = w; return true }),
        Spec(key: "clock", values: .hourCycle, summary: "how hours are shown (R-DAY-4)",
             get: { $0.day.hourCycle.rawValue },
             set: { s, v in guard let c = HourCycle(rawValue: v.lowercased()) else { return false }; s.day.hourCycle = c; return true }),
        Spec(key: "date-order", values: .dateOrder, summary: "how a slash date like 5/6 reads",
             get: { $0.dateOrder.rawValue },
             set: { s, v in guard let o = DateOrder(rawValue: v.lowercased()) else { return false }; s.dateOrder = o; return true }),
        Spec(key: "next-weekday", values: .nextWeekday, summary: "what 'next fri' means",
             get: { $0.nextWeekday.rawValue },
             set: { s, v in guard let o = NextWeekday(rawValue: v.lowercased()) else { return false }; s.nextWeekday = o; return true }),
        Spec(key: "morning", values: .time(like: WallTime(unchecked: 9 * 60)), summary: "the time 'morning' stands for",
             get: { $0.morning.iso },
             set: { s, v in guard let t = parseTime(v) else { return false }; s.morning = t; return true }),
        Spec(key: "afternoon", values: .time(like: WallTime(unchecked: 15 * 60)), summary: "the time 'afternoon' stands for",
             get: { $0.afternoon.iso },
             set: { s, v in guard let t = parseTime(v) else { return false }; s.afternoon = t; return true }),
        Spec(key: "evening", values: .time(like: WallTime(unchecked: 18 * 60)), summary: "the time 'evening' stands for",
             get: { $0.evening.iso },
             set: { s, v in guard let t = parseTime(v) else { return false }; s.evening = t; return true }),
        Spec(key: "tonight", values: .time(like: WallTime(unchecked: 20 * 60)), summary: "the time 'tonight' stands for",
             get: { $0.tonight.iso },
             set: { s, v in guard let t = parseTime(v) else { return false }; s.tonight = t; return true }),
        Spec(key: "zone", values: .zone, summary: "the account time zone (R-DAY-1)",
             get: { $0.zone ?? "" },
             set: { s, v in guard Zone(identifier: v) != nil else { return false }; s.zone = v; return true }),
        Spec(key: "quick-wins", values: .duration, summary: "Quick wins: a user-set estimate at or under this (R-PLAN-3)",
             get: { "\($0.quickWinMinutes)m" },
             set: { s, v in guard v.count <= 8, let m = NumberWords.minutes(v), m >= 0, m <= 100_000 else { return false }; s.quickWinMinutes = m; return true },
             storedWhenDefault: false),
        Spec(key: "row-detail", values: .rowDetail, summary: "detailed rows show High, Critical and the urgency score (R-PLAN-4)",
             get: { $0.rowDetail.rawValue },
             set: { s, v in guard let d = RowDetail(rawValue: v.lowercased()) else { return false }; s.rowDetail = d; return true },
             storedWhenDefault: false),
        Spec(key: "merge-meetings", values: .onOff, summary: "the same meeting on two connected calendars shows once (R-CAL-4)",
             get: { $0.mergeMeetings ? "on" : "off" },
             set: { s, v in
                 switch v.lowercased() {
                 case "on": s.mergeMeetings = true
                 case "off": s.mergeMeetings = false
                 default: return false
                 }
                 return true
             },
             storedWhenDefault: false),
    ] + UrgencyWeights.keys.map { k in
        Spec(key: k.key, values: .weight(minimum: k.minimum),
             summary: k.summary,
             get: { UrgencyWeights.text($0.urgency[keyPath: k.path]) },
             set: { s, v in guard let x = UrgencyWeights.parse(v, minimum: k.minimum) else { return false }; s.urgency[keyPath: k.path] = x; return true },
             storedWhenDefault: false)
    }

    public static func spec(_ key: String) -> Spec? {
        specs.first { $0.key == key.lowercased() }
    }

    /// The value of a setting as text.
    public func value(of key: String) -> String? {
        Settings.spec(key).map { $0.get(self) }
    }

    /// Changes a setting; false when the value is not one it takes.
    public mutating func set(_ key: String, to value: String) -> Bool {
        guard let spec = Settings.spec(key) else { return false }
        return spec.set(&self, value)
    }

    package static func parseTime(_ v: String) -> WallTime? {
        WallTime.parseISO(Array(v.utf8))
    }
}
