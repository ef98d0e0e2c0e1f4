// The 12- or 24-hour clock used to show times (R-DAY-4), a per-account setting.
// The raw values, "12h" and "24h", are how the setting is spelled in settings and JSON.

/// Whether times show as "2 PM" or as "14:00".
public enum HourCycle: String, Sendable, CaseIterable {
    /// "2 PM", "2:30 PM".
    case h12 = "12h"
    /// "14:00".
    case h24 = "24h"
}
