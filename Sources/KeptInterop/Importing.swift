// How an import runs, which is Interop's to decide: the name its report gives the file, and
// whether a large file is read ahead on a second thread.

import KeptRules
import KeptDomain
import KeptFiles

/// Runs imports.
public enum Importing {
    /// The options of an import from a file: its report names the file by its last component.
    public static func options(dryRun: Bool, file: String) -> ImportOptions {
        ImportOptions(dryRun: dryRun, name: Files.basename(of: file))
    }

    /// Imports from a reader into the engine, as one undo step; a large file (5,000 records or
    /// more, on a machine with two processors or more) is read ahead on a second thread.
    public static func run<S: ImportSource>(_ source: S, into engine: Engine, options: ImportOptions) throws(ImportError) -> ImportReport {
        if source.estimatedRecords >= 5_000, Cores.online() >= 2 {
            var p = PipelinedSource(source)
            return try engine.importTasks(&p, options: options)
        }
        var s = source
        return try engine.importTasks(&s, options: options)
    }
}
