// Task records read from a file but not yet built: the store's value holds them so a read-only
// statement builds only the tasks it prints (the JSON loader's `DeferredTasks`).

import KeptRules

/// Tasks known by their ids and filter columns, each built when it is asked for.
public protocol UnbuiltTasks: AnyObject, Sendable {
    /// The ids, ascending.
    var ids: [Int] { get }
    /// The filter columns, with titles and descriptions.
    var index: TaskIndex { get }
    /// Every task, built once.
    var tasks: [Task] { get }
    /// One task, by its row (its position in `ids`).
    func task(atRow k: Int) -> Task?
}
