// Saved filters (R-FIL-5) and settings: named filters in the store, starred or not, in the
// user's order, and the account's settings. A saved filter's text is checked by the caller
// (it is the language's to read) before it is saved here.

import KeptRules

extension Engine {
    /// The position of the first of `names` that is `name` without case: how a saved filter
    /// and a connected calendar are named.
    package static func position(of name: String, in names: [String]) -> Int? {
        let key = name.lowercased()
        return names.firstIndex { $0.lowercased() == key }
    }

    /// The position of the saved filter with a name, compared without case.
    package func savedIndex(_ name: String) throws(DomainError) -> Int {
        guard let k = Engine.position(of: name, in: store.filters.map(\.name)) else {
            throw .noSavedFilter(name, known: store.filters.map(\.name))
        }
        return k
    }

    package func commitFilters(_ summary: String, _ after: [SavedFilter]) throws(DomainError) {
        let before = store.filters
        try perform(summary) { step in stage([.filters(before: before, after: after)], into: &step) }
    }

    /// Saves a filter under a name, or gives a saved one new text; true when it is new.
    public func defineFilter(_ name: String, _ text: String) throws(DomainError) -> (filter: SavedFilter, new: Bool) {
        var after = store.filters
        if let k = Engine.position(of: name, in: after.map(\.name)) {
            after[k].filter = text
            try commitFilters("filter \(after[k].name) = \(text)", after)
            return (after[k], false)
        }
        let sf = SavedFilter(name: name, filter: text)
        after.append(sf)
        try commitFilters("filter \(sf.name) = \(text)", after)
        return (sf, true)
    }

    /// Stars or unstars a saved filter; `changed` is false when it was so already.
    public func starFilter(_ name: String, _ on: Bool) throws(DomainError) -> (filter: SavedFilter, changed: Bool) {
        let k = try savedIndex(name)
        var after = store.filters
        guard after[k].starred != on else { return (after[k], false) }
        after[k].starred = on
        try commitFilters("filter \(on ? "star" : "unstar") \(after[k].name)", after)
        return (after[k], true)
    }

    /// Deletes a saved filter that no other one uses.
    public func deleteFilter(_ name: String) throws(DomainError) -> SavedFilter {
        let k = try savedIndex(name)
        var after = store.filters
        let gone = after.remove(at: k)
        // A filter another one uses cannot go: the other would stop reading.
        if let user = after.first(where: { FilterText.refers($0.filter, to: gone.name) }) {
            throw .wrongState(.filterInUse(gone.name, by: user.name))
        }
        try commitFilters("filter delete \(gone.name)", after)
        return gone
    }

    /// Renames a saved filter; the filters that use it follow. Returns the old name and the filter.
    public func renameFilter(_ old: String, to new: String) throws(DomainError) -> (was: String, filter: SavedFilter) {
        let k = try savedIndex(old)
        if store.filters.enumerated().contains(where: { $0.offset != k && $0.element.name.lowercased() == new.lowercased() }) {
            throw .savedFilterExists(new)
        }
        var after = store.filters
        let was = after[k].name
        after[k].name = new
        for j in after.indices { after[j].filter = FilterText.rename(after[j].filter, from: was, to: new) }
        try commitFilters("filter rename \(was) to \(new)", after)
        return (was, after[k])
    }

    /// Moves a saved filter to a place in the user's order (from 1); returns it and its place.
    public func moveFilter(_ name: String, to place: Int) throws(DomainError) -> (filter: SavedFilter, place: Int) {
        let k = try savedIndex(name)
        var after = store.filters
        let f = after.remove(at: k)
        after.insert(f, at: min(max(0, place - 1), after.count))
        try commitFilters("filter move \(f.name) to \(place)", after)
        return (f, min(place, after.count))
    }

    // MARK: settings

    /// Sets a setting from its text; false when it already had that value. Changing the zone
    /// setting ends a zone the session was given; a new urgency weight picks Top 3 again.
    public func set(setting key: String, to value: String) throws(DomainError) -> Bool {
        guard let spec = Settings.spec(key) else { throw .unknownSetting(key, known: Settings.specs.map(\.key)) }
        var after = store.settings
        guard after.set(spec.key, to: value) else { throw .badSettingValue(key: spec.key, value: value, expected: spec.values) }
        if spec.key == "zone" { zoneOverride = nil }
        guard after != store.settings else { return false }
        let before = store.settings
        try perform("set \(spec.key) \(value)") { step in
            var changes: [Change] = [.settings(before: before, after: after)]
            // A new weight is the user's own new order: Top 3 is picked again in it at once
            // (R-PLAN-5); a pick finished today keeps its seat.
            if spec.key.hasPrefix("urgency.") || spec.key == "quick-wins", let p = store.plan {
                var q = p
                q.top3 = p.top3.filter { store.task($0)?.status == .done }
                if q != p { changes.append(.plan(before: p, after: q)) }
            }
            stage(changes, into: &step)
        }
        return true
    }
}
