// The UTC offsets of one IANA zone, read from Foundation's TimeZone and remembered per transition window.
// Listing many tasks asks for the same few offsets over and over; a window answers them without Foundation.

import Foundation

/// Shared, lock-protected offset lookup for one zone; every `Zone` value with the same name shares one.
package final class ZoneOffsetCache: @unchecked Sendable {
    // @unchecked: the only mutable state, `windows` and `nextSlot`, is touched only while holding `lock`.

    /// A stretch of time, [lower, upper) in Unix seconds, over which the offset does not change.
    private struct Window {
        var lower: Int
        var upper: Int
        var offset: Int
    }

    /// The Foundation zone: the source of truth for every offset.
    package let timeZone: TimeZone

    private let lock = NSLock()
    private var windows: [Window] = []
    private var nextSlot = 0
    /// A handful covers "now", a season either side and a few other years; older windows are recycled.
    private static let capacity = 8

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
        windows.reserveCapacity(ZoneOffsetCache.capacity)
    }

    /// Seconds east of UTC at `seconds` since the epoch (clamped to the supported years).
    package func offset(atSeconds rawSeconds: Int) -> Int {
        let seconds = min(max(rawSeconds, Instant.supportedSeconds.lowerBound), Instant.supportedSeconds.upperBound)
        if let cached = cachedOffset(at: seconds) { return cached }

        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let offset = timeZone.secondsFromGMT(for: date)
        var upper = Int.max
        if let next = timeZone.nextDaylightSavingTimeTransition(after: date) {
            let rounded = next.timeIntervalSince1970.rounded(.up)
            upper = Int(exactly: rounded).map { max($0, seconds + 1) } ?? seconds + 1
        }
        // Trust but verify: the window is cached only if its last second still has the same offset,
        // so a transition Foundation failed to report cannot leak a wrong offset into the cache.
        if upper != Int.max, upper - 1 > seconds {
            let last = Date(timeIntervalSince1970: TimeInterval(upper - 1))
            if timeZone.secondsFromGMT(for: last) != offset { return offset }
        }
        store(Window(lower: seconds, upper: upper, offset: offset))
        return offset
    }

    private func cachedOffset(at seconds: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        for window in windows where window.lower <= seconds && seconds < window.upper {
            return window.offset
        }
        return nil
    }

    private func store(_ window: Window) {
        lock.lock()
        defer { lock.unlock() }
        // A window ending at the same transition with the same offset is the same stretch: widen it downward.
        if let index = windows.firstIndex(where: { $0.upper == window.upper && $0.offset == window.offset }) {
            windows[index].lower = min(windows[index].lower, window.lower)
            return
        }
        if windows.count < ZoneOffsetCache.capacity {
            windows.append(window)
        } else {
            windows[nextSlot] = window
            nextSlot = (nextSlot + 1) % ZoneOffsetCache.capacity
        }
    }

    // MARK: - One cache per zone name

    private static let registry = Registry()

    /// The shared cache for an IANA name, or nil when Foundation does not know the name.
    package static func shared(for identifier: String) -> ZoneOffsetCache? {
        registry.cache(for: identifier)
    }

    /// Maps zone names to their caches so that `Zone(identifier:)` is cheap after the first call.
    private final class Registry: @unchecked Sendable {
        // @unchecked: `caches` is touched only while holding `lock`.
        private let lock = NSLock()
        private var caches: [String: ZoneOffsetCache] = [:]

        func cache(for identifier: String) -> ZoneOffsetCache? {
            lock.lock()
            if let existing = caches[identifier] {
                lock.unlock()
                return existing
            }
            lock.unlock()
            // Unknown names are not remembered, so garbage input cannot grow the table.
            guard let timeZone = TimeZone(identifier: identifier) else { return nil }
            let created = ZoneOffsetCache(timeZone: timeZone)
            lock.lock()
            defer { lock.unlock() }
            if let raced = caches[identifier] { return raced }
            caches[identifier] = created
            return created
        }
    }
}
