// `kept test --report tap|junit FILE`: the results for a CI system, beside the human output.
// One test point (TAP) or test case (JUnit) per command checked, with its time; a script that
// could not run is one failing point (`not ok`, `<error>`). TAP goes out as each script is
// reported (TAP 13, the plan at the end); JUnit XML once, at the end, with its totals.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Collects the scripts' results in one report format.
final class TestReportWriter {
    let target: ReportTarget
    /// Where a report on stdout (`-`) streams; nil for a file.
    private let stream: OutputStream?
    private var lines: [String] = []
    private var points = 0
    /// JUnit: the suites, written once the totals are known.
    private var suites: [String] = []
    private var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)

    init(_ target: ReportTarget, stdout: OutputStream) {
        self.target = target
        stream = target.path == "-" ? stdout : nil
        if target.format == .tap { emit(["TAP version 13"]) }
    }

    private func emit(_ ls: [String]) {
        if let stream {
            stream.lines(ls)
            stream.flush()
        } else {
            lines += ls
        }
    }

    /// A command's name in a report: its place and what it runs.
    static func name(_ path: String, _ o: TestOutcome) -> String {
        "\(path):\(o.line)" + (o.caseName.map { " (case \"\($0)\")" } ?? "") + " " + o.statement
    }

    static func milliseconds(_ s: Double) -> String {
        let us = Int((s * 1_000_000).rounded())
        let frac = String(us % 1000)
        return "\(us / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }

    static func seconds(_ s: Double) -> String {
        let us = Int((s * 1_000_000).rounded())
        let frac = String(us % 1_000_000)
        return "\(us / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }

    func add(_ r: ScriptReport) {
        switch target.format {
        case .tap: addTAP(r)
        case .junit: addJUnit(r)
        }
    }

    // MARK: TAP

    /// A TAP description: one line, `#` and `\` escaped (TAP 13).
    static func tapText(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "\n", "\r": out += " "
            default: out.append(c)
            }
        }
        return out
    }

    /// A YAML block (TAP 13) with the time and, for a failure, its text as a literal block.
    static func yaml(_ seconds: Double?, message: String? = nil, text: [String] = []) -> [String] {
        var y = ["  ---"]
        if let seconds { y.append("  duration_ms: \(milliseconds(seconds))") }
        if let message { y.append("  message: \"\(message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"") }
        if !text.isEmpty {
            y.append("  output: |")
            y += text.map { "    " + DisplayText.escaped($0) }
        }
        y.append("  ...")
        return y
    }

    private func addTAP(_ r: ScriptReport) {
        var out: [String] = []
        if r.broken {
            points += 1
            out.append("not ok \(points) - \(TestReportWriter.tapText(r.path)) could not run")
            out += TestReportWriter.yaml(r.seconds, message: "error", text: r.errors)
        }
        for o in r.outcomes {
            points += 1
            let name = TestReportWriter.tapText(TestReportWriter.name(r.path, o))
            let reason = TestReportWriter.tapText(o.reason.map { $0.isEmpty ? "no reason given" : $0 } ?? "")
            switch o.status {
            case .passed:
                out.append("ok \(points) - \(name)")
                out += TestReportWriter.yaml(o.seconds)
            case .skipped:
                out.append("ok \(points) - \(name) # SKIP \(reason)")
            case .xfailed:
                out.append("not ok \(points) - \(name) # TODO \(reason)")
                out += TestReportWriter.yaml(o.seconds)
            case .failed, .xpassed:
                out.append("not ok \(points) - \(name)")
                out += TestReportWriter.yaml(o.seconds, message: o.status == .failed ? "output differs" : "passed under @xfail", text: o.failure)
            }
        }
        emit(out)
    }

    // MARK: JUnit

    /// Text for XML: the five special characters as entities, and the characters XML 1.0 cannot
    /// hold (other controls) as U+FFFD.
    static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    private func addJUnit(_ r: ScriptReport) {
        let x = TestReportWriter.xml
        var cases: [String] = []
        var failures = 0, errors = 0, skipped = 0
        if r.broken {
            errors += 1
            cases.append("    <testcase classname=\"\(x(r.path))\" name=\"\(x(r.path)) could not run\" file=\"\(x(r.path))\" time=\"\(TestReportWriter.seconds(r.seconds))\">")
            cases.append("      <error message=\"\(x(r.errors.first ?? "error"))\">\(x(r.errors.joined(separator: "\n")))</error>")
            cases.append("    </testcase>")
        }
        for o in r.outcomes {
            let classname = TestSelection.name(r.path, o.caseName)
            let name = "line \(o.line): \(o.statement)"
            let head = "    <testcase classname=\"\(x(classname))\" name=\"\(x(name))\" file=\"\(x(r.path))\" line=\"\(o.line)\" time=\"\(TestReportWriter.seconds(o.seconds))\""
            let reason = o.reason.map { $0.isEmpty ? "no reason given" : $0 } ?? ""
            switch o.status {
            case .passed:
                cases.append(head + "/>")
            case .skipped:
                skipped += 1
                cases += [head + ">", "      <skipped message=\"\(x(reason))\"/>", "    </testcase>"]
            case .xfailed:
                skipped += 1
                cases += [head + ">", "      <skipped type=\"xfail\" message=\"\(x("expected to fail: " + reason))\"/>", "    </testcase>"]
            case .failed, .xpassed:
                failures += 1
                let message = o.status == .failed ? "output differs" : "passed under @xfail: \(reason)"
                cases += [head + ">", "      <failure type=\"\(o.status.rawValue)\" message=\"\(x(message))\">\(x(o.failure.joined(separator: "\n")))</failure>",
                          "    </testcase>"]
            }
        }
        let tests = r.outcomes.count + (r.broken ? 1 : 0)
        totals.tests += tests
        totals.failures += failures
        totals.errors += errors
        totals.skipped += skipped
        suites.append("  <testsuite name=\"\(x(r.path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(TestReportWriter.seconds(r.seconds))\">")
        suites += cases
        suites.append("  </testsuite>")
    }

    /// Ends the report; for a file, writes it (the error when it cannot be written).
    func finish(seconds: Double) -> FileError? {
        switch target.format {
        case .tap:
            emit(["1..\(points)"])
        case .junit:
            emit(["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                  "<testsuites name=\"kept test\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" time=\"\(TestReportWriter.seconds(seconds))\">"]
                 + suites + ["</testsuites>"])
        }
        guard stream == nil else { return nil }
        let text = lines.joined(separator: "\n") + "\n"
        if case .failure(let e) = Files.writeAtomically(Array(text.utf8), to: target.path, newMode: 0o644) { return e }
        return nil
    }
}
