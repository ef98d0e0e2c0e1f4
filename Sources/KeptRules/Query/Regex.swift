// PCRE2 patterns, compiled once (JIT where the library has it) and matched with match and depth
// limits, so a pathological pattern fails with an error instead of hanging. The only file that
// imports CPCRE2; offsets are UTF-8 bytes, as PCRE2 counts them.

import CPCRE2
import Dispatch
import Synchronization

/// Why a pattern could not be compiled or matched.
public struct RegexError: Error, Sendable {
    public let message: String
    /// The byte offset in the pattern where compiling failed.
    public let offset: Int?
}

/// A compiled PCRE2 pattern.
public final class RegexPattern: @unchecked Sendable {
    // @unchecked: the compiled code is read-only after init, and match data is taken from a
    // locked spare or made for the match, so one pattern can be used from several threads.
    private let code: OpaquePointer
    private let context: OpaquePointer?
    /// Whether JIT compiling succeeded.
    private let jitted: Bool
    /// Match data kept for reuse, a few at most: a filter matches a pattern once per task, on
    /// one or two threads.
    private let spares = Mutex<[OpaquePointer]>([])
    public let pattern: String

    /// The limits every match runs under (Limits.regexSteps, Limits.regexDepth).
    public static let matchLimit = UInt32(Limits.regexSteps)
    public static let depthLimit = UInt32(Limits.regexDepth)

    /// Compiles a pattern; `caseless` is the `i` flag; `whole` makes it match only a whole subject.
    public init(_ pattern: String, caseless: Bool = false, multiline: Bool = false, whole: Bool = false) throws(RegexError) {
        self.pattern = pattern
        var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        if multiline { options |= UInt32(PCRE2_MULTILINE) }
        if whole { options |= UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = Array(pattern.utf8)
        let compiled = bytes.withUnsafeBufferPointer { buf in
            pcre2_compile_8(buf.baseAddress, buf.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw RegexError(message: RegexPattern.message(for: errorCode), offset: errorOffset)
        }
        self.code = compiled
        // JIT is optional: where it is missing, the interpreter runs the same pattern.
        jitted = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        let ctx = pcre2_match_context_create_8(nil)
        if let ctx {
            pcre2_set_match_limit_8(ctx, RegexPattern.matchLimit)
            pcre2_set_depth_limit_8(ctx, RegexPattern.depthLimit)
        }
        self.context = ctx
    }

    deinit {
        for md in spares.withLock({ $0 }) { pcre2_match_data_free_8(md) }
        pcre2_code_free_8(code)
        if let context { pcre2_match_context_free_8(context) }
    }

    package static func message(for code: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 256)
        let n = buf.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, $0.count) }
        guard n > 0 else { return "pattern error \(code)" }
        return String(decoding: buf[0..<Int(n)], as: UTF8.self)
    }

    /// The byte range of the first match, nil when there is none; throws when a limit is hit.
    public func firstMatch(in subject: String) throws(RegexError) -> Range<Int>? {
        let bytes = Array(subject.utf8)
        var result: Result<Range<Int>?, RegexError> = .success(nil)
        bytes.withUnsafeBufferPointer { buf in
            do throws(RegexError) {
                result = .success(try firstMatch(bytes: buf))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// The first match in UTF-8 bytes.
    /// `valid` says the bytes are known to be well-formed UTF-8 (a store's text is checked when
    /// it is loaded), so PCRE2 need not check them again.
    public func firstMatch(bytes buf: UnsafeBufferPointer<UInt8>, valid: Bool = false) throws(RegexError) -> Range<Int>? {
        let reused = spares.withLock { $0.popLast() }
        guard let md = reused ?? pcre2_match_data_create_from_pattern_8(code, nil) else {
            throw RegexError(message: "out of memory for a match", offset: nil)
        }
        defer {
            let kept = spares.withLock { (s: inout [OpaquePointer]) -> Bool in
                guard s.count < 4 else { return false }
                s.append(md)
                return true
            }
            if !kept { pcre2_match_data_free_8(md) }
        }
        return try firstMatch(bytes: buf, valid: valid, md)
    }

    /// The first match, with the given match data (its ovector may be shorter than the
    /// pattern's groups: only the whole match is read).
    @inline(__always)
    package func firstMatch(bytes buf: UnsafeBufferPointer<UInt8>, valid: Bool, _ md: OpaquePointer) throws(RegexError) -> Range<Int>? {
        let rc = matcher.run(buf, valid: valid, md)
        if rc == PCRE2_ERROR_NOMATCH { return nil }
        if rc < 0 {
            if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT {
                throw RegexError(message: "the pattern took too long to match (limit reached)", offset: nil)
            }
            throw RegexError(message: RegexPattern.message(for: rc), offset: nil)
        }
        guard let ov = pcre2_get_ovector_pointer_8(md) else { return nil }
        let start = ov[0]
        let end = ov[1]
        return start..<max(start, end)
    }

    /// True when the pattern matches somewhere in UTF-8 bytes; a limit counts as no match.
    public func matches(bytes buf: UnsafeBufferPointer<UInt8>, valid: Bool = false) -> Bool {
        (try? firstMatch(bytes: buf, valid: valid)) != nil
    }

    /// True when the pattern matches somewhere in the subject; a limit counts as no match.
    public func matches(_ subject: String) -> Bool {
        (try? firstMatch(in: subject)) != nil
    }

    /// A handle to match with that holds no reference, for a filter's inner loop: matching
    /// through the pattern itself counts references to it on every task, from two threads at
    /// once. Valid while the pattern lives.
    package var matcher: RegexMatcher { RegexMatcher(code: code, context: context, jit: jitted) }
}

/// The compiled code of a RegexPattern, and the one place a match is run. On text known to be
/// UTF-8 (a store's text is checked when it is loaded) a JIT pattern goes through
/// pcre2_jit_match, which skips pcre2_match's checks of its arguments; the limits hold either way.
package struct RegexMatcher: @unchecked Sendable {
    // @unchecked: read-only pointers into a pattern that outlives the filter using them.
    package let code: OpaquePointer
    package let context: OpaquePointer?
    package let jit: Bool

    /// True when the pattern matches somewhere in `bytes`, with one thread's match data (made
    /// for this match when there is none); a limit counts as no match, as for
    /// `RegexPattern.matches`.
    @inline(__always)
    package func matches(valid bytes: UnsafeBufferPointer<UInt8>, _ scratch: OpaquePointer?) -> Bool {
        guard let md = scratch else {
            guard let own = pcre2_match_data_create_8(1, nil) else { return false }
            defer { pcre2_match_data_free_8(own) }
            return matches(valid: bytes, own)
        }
        // 0 is a match whose groups did not fit the match data.
        return run(bytes, valid: true, md) >= 0
    }

    /// PCRE2's result for a match in `bytes` with match data `md`; `valid` says the bytes are
    /// known to be well-formed UTF-8.
    @inline(__always)
    package func run(_ bytes: UnsafeBufferPointer<UInt8>, valid: Bool, _ md: OpaquePointer) -> Int32 {
        // An empty buffer may have no base address; PCRE2 takes a valid pointer with length 0.
        var empty: UInt8 = 0
        return withUnsafePointer(to: &empty) { e in
            let subject = bytes.baseAddress ?? e
            if valid, jit { return pcre2_jit_match_8(code, subject, bytes.count, 0, 0, md, context) }
            return pcre2_match_8(code, subject, bytes.count, 0, valid ? UInt32(PCRE2_NO_UTF_CHECK) : 0, md, context)
        }
    }
}

/// The regular expression budget of one query (Limits.regexQueryMilliseconds), shared by the
/// threads that run it: a deadline on the monotonic clock, and a flag a thread raises when it
/// stops, so the other stops too.
public final class RegexBudget: Sendable {
    /// The monotonic time (DispatchTime's nanoseconds) past which matching stops.
    package let deadline: UInt64
    package let stopped = Atomic<Bool>(false)

    /// A budget of `milliseconds` from now.
    public init(milliseconds: Int = Limits.regexQueryMilliseconds) {
        let now = DispatchTime.now().uptimeNanoseconds
        deadline = now &+ UInt64(max(0, milliseconds)) &* 1_000_000
    }

    package var isStopped: Bool { stopped.load(ordering: .relaxed) }

    package func stop() { stopped.store(true, ordering: .relaxed) }
}

/// Why a query's matching stopped: the pattern (by its place among the filter's patterns) and
/// whether the query's time ran out or one subject reached PCRE2's limits.
package struct RegexFailure: Sendable, Equatable {
    package var pattern: Int
    package var timedOut: Bool
}

/// Match data for one thread's run of matches, good for every pattern: it holds only the whole
/// match (PCRE2 returns 0 for "the ovector was too small", still a match). Not shared between
/// threads. With a budget it counts the matches toward it and keeps the first failure: a
/// subject that reaches a limit is never taken for no match (issue 20).
public final class RegexScratch {
    package let md: OpaquePointer?
    package let budget: RegexBudget?
    /// Set when a match reached a limit or the budget ran out; the caller stops and reports it.
    package var failure: RegexFailure?
    private var count = 0

    public init(budget: RegexBudget? = nil) {
        md = pcre2_match_data_create_8(1, nil)
        self.budget = budget
    }

    deinit {
        if let md { pcre2_match_data_free_8(md) }
    }

    /// Whether `re` (the filter's pattern number `pattern`) matches UTF-8 text known to be
    /// valid. A limit, or the query's time running out, records a failure and answers false;
    /// the clock is read every 16 matches.
    @inline(__always)
    package func match(_ re: RegexMatcher, pattern: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let md else {
            failure = RegexFailure(pattern: pattern, timedOut: false)
            return false
        }
        let rc = re.run(bytes, valid: true, md)
        if rc < 0, rc != PCRE2_ERROR_NOMATCH {
            failure = RegexFailure(pattern: pattern, timedOut: false)
            return false
        }
        count &+= 1
        if count & 15 == 0, let b = budget, DispatchTime.now().uptimeNanoseconds > b.deadline || b.isStopped {
            if !b.isStopped { failure = RegexFailure(pattern: pattern, timedOut: true) }
            // Stopped by the other thread: its failure is the one reported.
            else if failure == nil { failure = RegexFailure(pattern: -1, timedOut: true) }
        }
        return rc >= 0
    }
}
