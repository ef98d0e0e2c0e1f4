// The seven days of the week, numbered as ISO 8601 does (Monday = 1 … Sunday = 7).
// Comparison follows that numbering; a week that starts on Sunday is DayRules' business (R-DAY-5).

/// A day of the week, Monday = 1 … Sunday = 7.
public enum Weekday: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter English name: "Mon".
    public var shortName: String {
        switch self {
        case .monday: return "Mon"
        case .tuesday: return "Tue"
        case .wednesday: return "Wed"
        case .thursday: return "Thu"
        case .friday: return "Fri"
        case .saturday: return "Sat"
        case .sunday: return "Sun"
        }
    }

    /// The full English name: "Monday".
    public var name: String {
        switch self {
        case .monday: return "Monday"
        case .tuesday: return "Tuesday"
        case .wednesday: return "Wednesday"
        case .thursday: return "Thursday"
        case .friday: return "Friday"
        case .saturday: return "Saturday"
        case .sunday: return "Sunday"
        }
    }

    /// The full name, as `name`.
    public var description: String { name }

    /// The weekday `days` after this one (negative goes back); wraps around the week.
    public func advanced(by days: Int) -> Weekday {
        Weekday.fromIndex(CalendarMath.floorModulo(rawValue - 1 + days % 7, 7))
    }

    /// Days forward from this weekday to the next `other`, in 0...6 (0 when they are the same).
    public func days(until other: Weekday) -> Int {
        CalendarMath.floorModulo(other.rawValue - rawValue, 7)
    }

    /// Orders by ISO number, Monday first.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The weekday for a 0-based index in 0...6 (Monday = 0); callers pass a floor modulo so it is in range.
    package static func fromIndex(_ index: Int) -> Weekday {
        switch index {
        case 0: return .monday
        case 1: return .tuesday
        case 2: return .wednesday
        case 3: return .thursday
        case 4: return .friday
        case 5: return .saturday
        default: return .sunday
        }
    }
}
