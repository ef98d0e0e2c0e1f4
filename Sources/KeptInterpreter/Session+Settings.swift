// The session statements: now, zone, set (settings) and help. A setter prints nothing in text
// and, in JSON, the value it set, as the statement without a value prints it (docs/OUTPUT.md).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// `now` as JSON: the instant, the zone and the account day.
    package var nowJSON: JSONValue {
        .object(JSONObject([
            ("now", .string(TimeText.isoInstant(now, in: zone))),
            ("zone", .string(zone.identifier)),
            ("today", .string(today.iso)),
        ]))
    }

    package func runNow(_ s: Statement, _ arg: TextArg?) -> CommandOutput {
        let file = s.source.file
        guard let arg else {
            let n = nowLocal
            let t = today
            var line = "\(TimeText.longDate(n.date)) \(TimeText.time(n.time, store.settings.day.hourCycle)) \(zone.identifier)"
            if t != n.date { line += " · today is \(TimeText.shortDate(t)) (day starts \(store.settings.day.dayStart.iso))" }
            return out([line], json: nowJSON)
        }
        if let i = TimeText.parseISOInstant(arg.text) {
            clock = .instant(i)
            return out([], json: nowJSON)
        }
        let bytes = Array(arg.text.utf8)
        var wall = CivilDateTime.parseISO(bytes)
        if wall == nil, let d = CivilDate.parseISO(bytes) { wall = CivilDateTime(date: d, time: .midnight) }
        guard let w = wall else {
            let first = arg.text.split(separator: " ").first.map(String.init) ?? ""
            if DatePhrase.classify([first]).first == .impossible {
                return .error(Catalog.impossibleDate(arg.text, range: arg.range, file: file, why: "no such day"))
            }
            return .error(Catalog.badDate(arg.text, range: arg.range, file: file,
                                          help: "write now as 2026-06-15 09:00, 2026-06-15T09:00 or an instant like 2026-06-15T07:00:00Z"))
        }
        clock = .wall(w)
        return out([], json: nowJSON)
    }

    package func runZone(_ s: Statement, _ arg: TextArg?) -> CommandOutput {
        guard let arg else {
            return out([zone.identifier], json: .object(JSONObject([("zone", .string(zone.identifier))])))
        }
        guard let z = Zone(identifier: arg.text) else {
            let known = ["UTC", "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Asia/Tokyo"]
            return .error(Catalog.unknownZone(arg.text, range: arg.range, file: s.source.file,
                                              help: Catalog.didYouMean(Suggestion.nearest(arg.text, in: known))))
        }
        // `zone` fixes the zone of this session, as `now` fixes its clock (R-DAY-1); the
        // account's own zone is the setting `set zone NAME`, which is stored and undoable.
        zoneOverride = z
        return out([], json: .object(JSONObject([("zone", .string(zone.identifier))])))
    }

    package func runSetting(_ s: Statement, _ key: TextArg?, _ value: TextArg?) -> CommandOutput {
        let file = s.source.file
        guard let key else {
            let specs = Settings.specs
            let w = specs.map { $0.key.count }.max() ?? 0
            let lines = specs.map { spec -> String in
                let v = spec.get(store.settings)
                return spec.key + String(repeating: " ", count: w - spec.key.count) + "  " + (v.isEmpty ? "(not set: \(zone.identifier))" : v)
            }
            let json = JSONValue.object(JSONObject(specs.map { ($0.key, JSONValue.string($0.get(store.settings))) }))
            return out(lines, json: json)
        }
        guard let spec = Settings.spec(key.text) else {
            return .error(Catalog.unknownSetting(key.text, range: key.range, file: file, candidates: Settings.specs.map(\.key)))
        }
        guard let value else {
            return out([spec.get(store.settings)], json: .object(JSONObject([(spec.key, .string(spec.get(store.settings)))])))
        }
        do {
            let changed = try engine.set(setting: spec.key, to: value.text)
            return out([], json: .object(JSONObject([(spec.key, .string(spec.get(store.settings)))])), changed: changed)
        } catch {
            return .error(diagnostic(error, s, at: value.range))
        }
    }

    package func runHelp(_ s: Statement, _ topic: TextArg?) -> CommandOutput {
        guard let topic else {
            let cmds = Keyword.commands
            let w = cmds.map { $0.rawValue.count }.max() ?? 0
            let lines = ["Commands:"] + cmds.map { "  " + $0.rawValue + String(repeating: " ", count: w - $0.rawValue.count) + "  " + $0.summary }
                + ["", "'help COMMAND' explains one; 'help settings' lists the settings; 'help errors' the error codes."]
            return out(lines, json: .object(JSONObject([("commands", .array(cmds.map {
                .object(JSONObject([("name", .string($0.rawValue)), ("summary", .string($0.summary))]))
            }))])))
        }
        let word = topic.text.lowercased()
        if word == "settings" {
            let lines = Settings.specs.map { "  \($0.key): \($0.summary); \(Catalog.settingValues($0.values))" }
            return out(["Settings (set KEY VALUE):"] + lines, json: .object(JSONObject([("settings", .array(Settings.specs.map {
                .object(JSONObject([("key", .string($0.key)), ("summary", .string($0.summary)), ("values", .string(Catalog.settingValues($0.values)))]))
            }))])))
        }
        if word == "errors" {
            let lines = Catalog.entries.map { "  \($0.code)  \($0.summary)" }
            return out(["Error codes:"] + lines, json: .object(JSONObject([("errors", .array(Catalog.entries.map {
                .object(JSONObject([("code", .string($0.code.rawValue)), ("summary", .string($0.summary))]))
            }))])))
        }
        if let summary = Catalog.summary(of: topic.text.uppercased()) {
            return out(["\(topic.text.uppercased()): \(summary)"], json: .object(JSONObject([("code", .string(topic.text.uppercased())), ("summary", .string(summary))])))
        }
        guard let kw = Keyword(rawValue: word), kw.isCommand else {
            return .error(Catalog.unknownCommand(topic.text, range: topic.range, file: s.source.file, candidates: Keyword.commands.map(\.rawValue) + ["settings", "errors"]))
        }
        let lines = ["\(kw.rawValue): \(kw.summary)", "usage:   \(kw.usage)", "example: \(kw.example)"]
        return out(lines, json: .object(JSONObject([("command", .string(kw.rawValue)), ("usage", .string(kw.usage)), ("example", .string(kw.example))])))
    }
}
