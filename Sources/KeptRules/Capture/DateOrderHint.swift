// Which order of day and month a time zone's people usually write (R-CAP-10). Only a hint: the
// `date-order` setting decides how `3/4` reads; the hint decides whether Kept asks about it.

extension DateOrder {
    /// Zones of the Americas where day/month is usual (the rest of the Americas is month/day).
    package static let dayFirstAmericas: Set<String> = [
        "Argentina", "Asuncion", "Bahia", "Belem", "Bogota", "Buenos_Aires", "Caracas", "Cayenne", "Cordoba", "Costa_Rica",
        "Cuiaba", "El_Salvador", "Fortaleza", "Guatemala", "Guayaquil", "Havana", "La_Paz", "Lima", "Managua", "Manaus",
        "Mexico_City", "Monterrey", "Montevideo", "Panama", "Paramaribo", "Port_of_Spain", "Recife", "Santiago",
        "Santo_Domingo", "Sao_Paulo", "Tegucigalpa", "Merida", "Cancun", "Chihuahua", "Punta_Arenas",
    ]

    /// Zones of Asia and the Pacific where day/month is usual; East Asia writes year/month/day.
    package static let dayFirstAsia: Set<String> = [
        "Kolkata", "Calcutta", "Dubai", "Karachi", "Dhaka", "Jakarta", "Bangkok", "Ho_Chi_Minh", "Saigon", "Kuala_Lumpur",
        "Singapore", "Riyadh", "Jerusalem", "Tel_Aviv", "Baghdad", "Beirut", "Amman", "Damascus", "Qatar", "Kuwait",
        "Bahrain", "Muscat", "Tehran", "Kabul", "Kathmandu", "Colombo", "Yangon", "Hong_Kong", "Macau", "Tbilisi",
        "Yerevan", "Baku", "Nicosia", "Famagusta", "Tashkent", "Almaty", "Bishkek", "Dushanbe", "Ashgabat",
    ]

    /// The order a zone suggests: `dmy` for Europe, Africa, Australia, New Zealand, most of
    /// Latin America and South and West Asia; `mdy` for the rest of the Americas; nil where the
    /// zone says nothing (UTC, East Asia's year-first order, an unknown name).
    public static func suggested(forZone identifier: String) -> DateOrder? {
        let parts = identifier.split(separator: "/")
        guard let region = parts.first else { return nil }
        let city = parts.last.map(String.init) ?? ""
        switch region {
        case "Europe", "Africa", "Australia", "Indian", "Atlantic": return .dmy
        case "America": return dayFirstAmericas.contains(city) || (parts.count > 2 && parts[1] == "Argentina") ? .dmy : .mdy
        case "Asia": return dayFirstAsia.contains(city) ? .dmy : nil
        case "Pacific": return ["Auckland", "Chatham", "Fiji"].contains(city) ? .dmy : nil
        case "US", "Canada": return .mdy
        case "GB", "GB-Eire", "Eire", "NZ", "Portugal", "Poland", "Turkey", "Israel", "Egypt", "Iceland": return .dmy
        default: return nil
        }
    }
}
