// The render stage of the session statements: now, zone, set (settings) and help. A setter
// prints nothing in text and, in JSON, the value it set, as the statement without a value
// prints it (docs/OUTPUT.md).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a session statement did.
package enum SettingsOutcome {
    case now, nowSet
    case zone, zoneSet
    case settings
    case setting(Settings.Spec)
    case settingSet(Settings.Spec, changed: Bool)
    case help(HelpTopic)
}

extension Session {
    /// `now` as JSON: the instant, the zone and the account day.
    package var nowJSON: JSONValue {
        .object(JSONObject([
            ("now", .string(TimeText.isoInstant(now, in: zone))),
            ("zone", .string(zone.identifier)),
            ("today", .string(today.iso)),
        ]))
    }

    /// The output of a session statement.
    package func render(_ o: SettingsOutcome) -> CommandOutput {
        switch o {
        case .now:
            let n = nowLocal
            let t = today
            var line = "\(TimeText.longDate(n.date)) \(TimeText.time(n.time, store.settings.day.hourCycle)) \(zone.identifier)"
            if t != n.date { line += " · today is \(TimeText.shortDate(t)) (day starts \(store.settings.day.dayStart.iso))" }
            return out([line], json: nowJSON)
        case .nowSet: return out([], json: nowJSON)
        case .zone: return out([zone.identifier], json: .object(JSONObject([("zone", .string(zone.identifier))])))
        case .zoneSet: return out([], json: .object(JSONObject([("zone", .string(zone.identifier))])))
        case .settings:
            let specs = Settings.specs
            let w = specs.map { $0.key.count }.max() ?? 0
            let lines = specs.map { spec -> String in
                let v = spec.get(store.settings)
                return spec.key + String(repeating: " ", count: w - spec.key.count) + "  " + (v.isEmpty ? "(not set: \(zone.identifier))" : v)
            }
            let json = JSONValue.object(JSONObject(specs.map { ($0.key, JSONValue.string($0.get(store.settings))) }))
            return out(lines, json: json)
        case .setting(let spec):
            let v = spec.get(store.settings)
            // A store without a zone of its own uses the machine's (or the test mode's): said so,
            // never an empty line. JSON keeps the stored value, "" for none.
            let text = spec.key == "zone" && v.isEmpty ? "none: the machine's zone, \(engine.defaultZone.identifier)" : v
            return out([text], json: .object(JSONObject([(spec.key, .string(v))])))
        case .settingSet(let spec, let changed):
            return out([], json: .object(JSONObject([(spec.key, .string(spec.get(store.settings)))])), changed: changed)
        case .help(let topic): return renderHelp(topic)
        }
    }

    /// The text of `help`.
    package func renderHelp(_ topic: HelpTopic) -> CommandOutput {
        switch topic {
        case .commands:
            let cmds = Keyword.commands
            let w = cmds.map { $0.rawValue.count }.max() ?? 0
            let lines = ["Commands:"] + cmds.map { "  " + $0.rawValue + String(repeating: " ", count: w - $0.rawValue.count) + "  " + $0.summary }
                + ["", "'help COMMAND' explains one; 'help settings' lists the settings; 'help errors' the error codes."]
            return out(lines, json: .object(JSONObject([("commands", .array(cmds.map {
                .object(JSONObject([("name", .string($0.rawValue)), ("summary", .string($0.summary))]))
            }))])))
        case .settings:
            let lines = Settings.specs.map { "  \($0.key): \($0.summary); \(Catalog.settingValues($0.values))" }
            return out(["Settings (set KEY VALUE):"] + lines, json: .object(JSONObject([("settings", .array(Settings.specs.map {
                .object(JSONObject([("key", .string($0.key)), ("summary", .string($0.summary)), ("values", .string(Catalog.settingValues($0.values)))]))
            }))])))
        case .errors:
            let lines = Catalog.entries.map { "  \($0.code)  \($0.summary)" }
            return out(["Error codes:"] + lines, json: .object(JSONObject([("errors", .array(Catalog.entries.map {
                .object(JSONObject([("code", .string($0.code.rawValue)), ("summary", .string($0.summary))]))
            }))])))
        case .code(let code, let summary):
            return out(["\(code): \(summary)"], json: .object(JSONObject([("code", .string(code)), ("summary", .string(summary))])))
        case .command(let kw):
            let lines = ["\(kw.rawValue): \(kw.summary)", "usage:   \(kw.usage)", "example: \(kw.example)"]
            return out(lines, json: .object(JSONObject([("command", .string(kw.rawValue)), ("usage", .string(kw.usage)), ("example", .string(kw.example))])))
        }
    }
}
