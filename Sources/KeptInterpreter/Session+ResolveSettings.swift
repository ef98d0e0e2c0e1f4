// The resolve stage of the session statements: now, zone, set (settings) and help. A clock,
// a zone, a setting's key and a help topic are read here, and their errors come out here.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What `help` explains: the commands, the settings, the error codes, one code, or one command.
package enum HelpTopic {
    case commands, settings, errors
    case code(String, summary: String)
    case command(Keyword)
}

/// A session statement, resolved.
package enum SettingsRequest {
    /// `now` without a value, or with the clock it fixes.
    case showNow
    case setNow(SessionClock)
    /// `zone` without a value, or with the zone it fixes for the session (R-DAY-1).
    case showZone
    case setZone(Zone)
    /// `set` alone, `set KEY`, and `set KEY VALUE`.
    case listSettings
    case showSetting(Settings.Spec)
    case set(Settings.Spec, to: String)
    case help(HelpTopic)
}

extension Session {
    /// The request of `now`, `zone`, `set KEY VALUE` or `help`, or nil for another statement.
    package func resolveSettings(_ s: Statement) -> Result<SettingsRequest, Diagnostic>? {
        switch s.kind {
        case .now(let arg): return resolveNow(s, arg)
        case .zone(let arg): return resolveZone(s, arg)
        case .setting(let key, let value): return resolveSetting(s, key, value)
        case .help(let topic): return resolveHelp(s, topic)
        default: return nil
        }
    }

    /// The clock `now` fixes: an instant, a wall time, or a date at midnight.
    package func resolveNow(_ s: Statement, _ arg: TextArg?) -> Result<SettingsRequest, Diagnostic> {
        let file = s.source.file
        guard let arg else { return .success(.showNow) }
        if let i = TimeText.parseISOInstant(arg.text) { return .success(.setNow(.instant(i))) }
        let bytes = Array(arg.text.utf8)
        var wall = CivilDateTime.parseISO(bytes)
        if wall == nil, let d = CivilDate.parseISO(bytes) { wall = CivilDateTime(date: d, time: .midnight) }
        guard let w = wall else {
            let first = arg.text.split(separator: " ").first.map(String.init) ?? ""
            if DatePhrase.classify([first]).first == .impossible {
                return .failure(Catalog.impossibleDate(arg.text, range: arg.range, file: file, why: "no such day"))
            }
            return .failure(Catalog.badDate(arg.text, range: arg.range, file: file,
                                            help: "write now as 2026-06-15 09:00, 2026-06-15T09:00 or an instant like 2026-06-15T07:00:00Z"))
        }
        return .success(.setNow(.wall(w)))
    }

    /// The zone `zone` names; an unknown one suggests the nearest of a few.
    package func resolveZone(_ s: Statement, _ arg: TextArg?) -> Result<SettingsRequest, Diagnostic> {
        guard let arg else { return .success(.showZone) }
        guard let z = Zone(identifier: arg.text) else {
            let known = ["UTC", "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Asia/Tokyo"]
            return .failure(Catalog.unknownZone(arg.text, range: arg.range, file: s.source.file,
                                                help: Catalog.didYouMean(Suggestion.nearest(arg.text, in: known))))
        }
        return .success(.setZone(z))
    }

    /// The setting `set` names, and the value it is set to; the engine checks the value.
    package func resolveSetting(_ s: Statement, _ key: TextArg?, _ value: TextArg?) -> Result<SettingsRequest, Diagnostic> {
        guard let key else { return .success(.listSettings) }
        guard let spec = Settings.spec(key.text) else {
            return .failure(Catalog.unknownSetting(key.text, range: key.range, file: s.source.file, candidates: Settings.specs.map(\.key)))
        }
        guard let value else { return .success(.showSetting(spec)) }
        return .success(.set(spec, to: value.text))
    }

    /// What `help` explains: `settings`, `errors`, an error code, or a command.
    package func resolveHelp(_ s: Statement, _ topic: TextArg?) -> Result<SettingsRequest, Diagnostic> {
        guard let topic else { return .success(.help(.commands)) }
        let word = topic.text.lowercased()
        if word == "settings" { return .success(.help(.settings)) }
        if word == "errors" { return .success(.help(.errors)) }
        if let summary = Catalog.summary(of: topic.text.uppercased()) {
            return .success(.help(.code(topic.text.uppercased(), summary: summary)))
        }
        guard let kw = Keyword(rawValue: word), kw.isCommand else {
            return .failure(Catalog.unknownCommand(topic.text, range: topic.range, file: s.source.file, candidates: Keyword.commands.map(\.rawValue) + ["settings", "errors"]))
        }
        return .success(.help(.command(kw)))
    }
}
