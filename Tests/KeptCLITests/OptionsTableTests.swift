// The options table and the parser are one: every row of `CommandLineOptions.flags`, given on
// the command line of each verb that takes it, changes what the parser returns (a row whose
// handler does nothing, or that falls through to help, fails here), and every spelling of a row
// does the same. A row without a handler does not compile (`Flag`'s initialisers require one).

@testable import KeptCLI
import XCTest

final class OptionsTableTests: XCTestCase {
    /// The least each verb needs to parse; the flag goes after it (a repeated flag's last value
    /// wins), or before it for `convert`, which wants its flag first.
    static let baseArguments: [String: [String]] = [
        "repl": [],
        "run": [],
        "test": ["examples/"],
        "import": ["in.json", "--store", "base.json"],
        "export": ["out.json", "--store", "base.json"],
        "convert": ["from.json", "to.json"],
        "sync": ["--store", "base.json"],
        "account": ["create", "alice"],
        "add": ["Buy", "milk"],
        "list": [],
        "plan": [],
        "agenda": [],
        "done": ["3"],
        "show": ["3"],
        "edit": ["3"],
        "undo": [],
        "init": [],
    ]

    /// The base of a flag that one form of its verb takes: `kept account link` alone opens a store.
    static let baseForFlag: [String: [String]] = [
        "account --store": ["link", "host=base", "--store", "base.json"],
    ]

    static func base(_ verb: String, _ flag: Flag) -> [String]? {
        baseForFlag["\(verb) \(flag.names[0])"] ?? baseArguments[verb]
    }

    /// A value for each way the usage writes one, unlike any default; a flag whose value has
    /// choices and no entry here takes its last choice.
    static let sampleValues: [String: [String]] = [
        "FILE": ["other.json"],
        "ISO": ["2026-06-15T09:00"],
        "TZ": ["Europe/Berlin"],
        "COMMAND": ["list"],
        "N": ["3"],
        "PATTERN": ["rent"],
        "DIR": ["."],
        "FORMAT": ["tw"],
        "tap|junit FILE": ["junit", "report.xml"],
        "CONNINFO": ["host=other"],
    ]

    /// What the parser made of a command line, as text (every field of the options shows).
    func parsed(_ args: [String]) -> String {
        switch CommandLineOptions.parse(args) {
        case .success(let invocation): return String(describing: invocation)
        case .failure(let e): return "usage error: \(e.message)"
        }
    }

    func commandLine(_ verb: String, _ base: [String], _ given: [String]) -> [String] {
        verb == "convert" ? [verb] + given + base : [verb] + base + given
    }

    func arguments(for flag: Flag, spelled name: String) -> [String]? {
        guard let value = flag.value else { return [name] }
        guard let sample = Self.sampleValues[value] ?? flag.choices.last.map({ [$0] }) else { return nil }
        return [name] + sample
    }

    /// opt-1: every row, on every verb it names, has an effect, and only `--help` asks for help.
    func testEveryRowHasAHandler() {
        for flag in CommandLineOptions.flags {
            for verb in flag.verbs {
                guard let base = Self.base(verb, flag) else {
                    XCTFail("\(flag.names[0]): no base arguments for 'kept \(verb)' in this test")
                    continue
                }
                guard let given = arguments(for: flag, spelled: flag.names[0]) else {
                    XCTFail("\(flag.names[0]): no sample value for '\(flag.value ?? "")' in this test")
                    continue
                }
                let without = parsed([verb] + base)
                let with = parsed(commandLine(verb, base, given))
                XCTAssertFalse(without.hasPrefix("usage error"), "kept \(verb): \(without)")
                XCTAssertFalse(with.hasPrefix("usage error"), "kept \(verb) \(given.joined(separator: " ")): \(with)")
                XCTAssertNotEqual(with, without, "kept \(verb) \(given.joined(separator: " ")) changes nothing: the row has no handler")
                if flag.names.contains("--help") {
                    XCTAssertEqual(with, String(describing: Invocation.help(verb)))
                } else {
                    XCTAssertFalse(with.hasPrefix("help("), "kept \(verb) \(given.joined(separator: " ")) prints help: \(with)")
                }
            }
        }
    }

    /// opt-2: a row's other spellings do what its main one does, and no spelling is in two rows.
    func testSpellingsAgree() {
        var seen: Set<String> = []
        for flag in CommandLineOptions.flags {
            for name in flag.names {
                XCTAssertTrue(seen.insert(name).inserted, "\(name) is in two rows")
            }
            for verb in flag.verbs {
                guard let base = Self.base(verb, flag), let main = arguments(for: flag, spelled: flag.names[0]) else { continue }
                for name in flag.names.dropFirst() {
                    guard let other = arguments(for: flag, spelled: name) else { continue }
                    XCTAssertEqual(parsed(commandLine(verb, base, other)), parsed(commandLine(verb, base, main)), "kept \(verb) \(name)")
                }
            }
        }
    }
}
