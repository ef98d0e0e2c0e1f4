// The resolve stage of saved filters (R-FIL-5): a filter's text is read here, so a saved
// filter is checked when it is saved (`filter:NAME` uses one inside another, and a cycle is
// refused with the chain); the engine keeps them (Domain/Engine+Filters). Also the areas list
// (R-FIL-6) and `explain FILTER`, whose filter is bound here.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A saved-filter statement, resolved: names as written, a filter checked or bound.
package enum SavedFilterRequest {
    /// Saves a filter under a name, or changes the one of that name; `text` is as written.
    case define(name: String, text: String)
    case star(String, on: Bool)
    case delete(String)
    case rename(String, to: String)
    case move(String, to: Int)
    /// `filters`: the saved filters.
    case list
    /// `areas`: the areas' names.
    case areas
    /// `explain FILTER`: the filter, bound, and how much it matches.
    case explain(FilterExpr)
    /// `explain FILTER for ID`: the filter, bound, tried part by part on one task (R-FIL-8).
    case explainFor(FilterExpr, Task)
}

extension Session {
    /// The request of a saved-filter statement, `areas` or `explain`, or nil for another statement.
    package func resolveSavedFilter(_ s: Statement) -> Result<SavedFilterRequest, Diagnostic>? {
        switch s.kind {
        case .filterDefine(let name, let f): return resolveFilterDefine(s, name, f)
        case .filterStar(let name, let on): return .success(.star(name.text, on: on))
        case .filterDelete(let name): return .success(.delete(name.text))
        case .filterRename(let old, let new): return .success(.rename(old.text, to: new.text))
        case .filterMove(let name, let to): return .success(.move(name.text, to: to))
        case .filters: return .success(.list)
        case .areas: return .success(.areas)
        case .explainFilter(let f, let ref?):
            // A filter of deleted tasks is refused (E0231): a deleted task has no id to try.
            switch bindFilter(f, s) {
            case .success(let e?): return resolve(ref, s).map { .explainFor(e, $0) }
            case .success(nil): return .failure(Catalog.expected("a filter", after: "explain", found: nil, range: f.range, file: s.source.file))
            case .failure(let d): return .failure(d)
            }
        case .explainFilter(let f, nil):
            switch bindFilter(f, s, deleted: true) {
            case .success(let e?): return .success(.explain(e))
            case .success(nil): return .failure(Catalog.expected("a filter", after: "explain", found: nil, range: f.range, file: s.source.file))
            case .failure(let d): return .failure(d)
            }
        default: return nil
        }
    }

    /// A filter to save, checked: it must read now, and must not reach itself through others.
    package func resolveFilterDefine(_ s: Statement, _ name: TextArg, _ f: FilterSource) -> Result<SavedFilterRequest, Diagnostic> {
        let text = s.source.rawText(f.range)
        // The filter must read now, and must not reach itself through others.
        var others = store.filters.filter { $0.name.lowercased() != name.text.lowercased() }
        others.append(SavedFilter(name: name.text, filter: text))
        // Its syntax is read first, with no store and no clock; then it is bound against the
        // store, as every use of it will be.
        let parsed: ParsedFilter
        switch f.parsed {
        case .success(let p): parsed = p
        case .failure(let d): return .failure(d)
        }
        var scope = filterScope
        scope.saved = others
        var b = FilterBinder(scope: scope, file: s.source.file, visiting: [name.text])
        do throws(Diagnostic) { _ = try b.bindFilter(parsed.syntax) } catch { return .failure(error) }
        warnings += parsed.warnings
        return .success(.define(name: name.text, text: text))
    }
}
