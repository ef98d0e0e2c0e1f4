// Integer calendar arithmetic on the proleptic Gregorian calendar: day numbers and floor division.
// Everything here is plain Int math so that dates never go through Foundation or seconds.

/// The integer algorithms behind `CivilDate`, `Zone` and the ISO printers.
package enum CalendarMath {
    /// Seconds in a civil day; zones are handled through offsets, so a day here is always 86 400 s.
    package static let secondsPerDay = 86_400

    /// Integer division rounding toward negative infinity, needed for day and minute math before 1970.
    @inline(__always)
    package static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The remainder that goes with `floorDivide`: always in 0..<b for a positive b.
    @inline(__always)
    package static func floorModulo(_ a: Int, _ b: Int) -> Int {
        a - floorDivide(a, b) * b
    }

    /// Whether `year` has a Feb 29 (every 4th year, except centuries not divisible by 400).
    @inline(__always)
    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The length of a month, or 0 for a month outside 1...12.
    @inline(__always)
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Days since 1970-01-01 of a valid civil date (the days-from-civil algorithm on 400-year eras).
    package static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        // Count years from March so the leap day is the last day of the counted year.
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400                                   // 0...399
        let shiftedMonth = month > 2 ? month - 3 : month + 9            // March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1          // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468                       // 719 468 = 0000-03-01 to 1970-01-01
    }

    /// The civil date of a day number (the inverse of `dayNumber(year:month:day:)`).
    package static func civil(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097                                 // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153                     // March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
