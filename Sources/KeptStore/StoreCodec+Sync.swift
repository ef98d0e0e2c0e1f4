// The sync state in the store file (docs/STORE.md, "Sync"): the `syncState` key, written from
// `SyncState.json` and read back with `SyncState(json:)`. The store checks the shape itself
// before handing it over, so that a part that does not read is named, and nothing is read as
// less than the file holds (R-STORE-4): a list that is not a list, or two outbox entries for
// one item, make the store unreadable instead of shorter.

import KeptRules
import KeptDomain

extension StoreCodec {
    /// The top-level key of the sync state. Not `sync`: stores before sync (the demo store among
    /// them) may hold a `sync` key of another tool, which R-STORE-1 keeps as it is; read as the
    /// sync state it would make them unreadable.
    package static let syncKey = "syncState"

    /// The sync object, one member a line and each outbox or review entry on a line of its own,
    /// so a store with a long outbox still diffs well. A long outbox is cut into pieces as the
    /// task list is (`pieceBytes`), so it is never held twice while it is written.
    package static func appendSync(_ v: JSONValue, to out: inout [UInt8], pieces: inout [[UInt8]]) {
        guard case .object(let o) = v else {
            JSONWriter.append(v, to: &out, pretty: false, indent: 0, level: 0)
            return
        }
        out.append(UInt8(ascii: "{"))
        for (k, m) in o.members.enumerated() {
            out.append(contentsOf: Array((k == 0 ? "\n    " : ",\n    ").utf8))
            JSONWriter.appendString(m.key, to: &out)
            out.append(contentsOf: Array(": ".utf8))
            guard case .array(let items) = m.value, !items.isEmpty else {
                JSONWriter.append(m.value, to: &out, pretty: false, indent: 0, level: 0)
                continue
            }
            out.append(UInt8(ascii: "["))
            for (j, item) in items.enumerated() {
                out.append(contentsOf: Array((j == 0 ? "\n      " : ",\n      ").utf8))
                JSONWriter.append(item, to: &out, pretty: false, indent: 0, level: 0)
                if out.count >= pieceBytes - 16_384 {
                    pieces.append(out)
                    out = []
                    out.reserveCapacity(pieceBytes)
                }
            }
            out.append(contentsOf: Array("\n    ]".utf8))
        }
        out.append(contentsOf: Array("\n  }".utf8))
    }

    /// Reads the `sync` value: each part is checked and named when it does not read, then the
    /// whole is read by `SyncState(json:)`, which must agree.
    package static func decodeSync(_ v: JSONValue) throws(HistoryError) -> SyncState {
        guard case .object(let o) = v else { throw HistoryError(message: "'\(syncKey)' is an object") }
        if let l = o["link"], !l.isNull, SyncLink(json: l) == nil {
            throw HistoryError(message: "the link needs a 'server', an 'account' and a 'device' (hex digits)")
        }
        if let c = o["clock"], !c.isNull, c.stringValue.flatMap(HLC.init) == nil {
            throw HistoryError(message: "'clock' is a stamp like 1764806400000-0000-3f2a9c01b2d4e5f6")
        }
        guard let cursor = o["cursor"]?.numberValue?.int, cursor >= 0 else {
            throw HistoryError(message: "'cursor' is a whole number from 0")
        }
        var keys: [SyncKey: Int] = [:]
        if let list = o["outbox"] {
            // SyncState(json:) reads a value that is not a list as an empty outbox.
            guard case .array(let items) = list else { throw HistoryError(message: "'outbox' is a list") }
            for (k, item) in items.enumerated() {
                guard let e = OutboxEntry(json: item) else { throw HistoryError(message: "outbox entry \(k + 1) does not read") }
                // SyncState(json:) keeps the last of two entries for one item: one change would
                // be lost without a word.
                if let first = keys[e.key] {
                    throw HistoryError(message: "outbox entries \(first) and \(k + 1) are both for \(e.key); an item has one entry")
                }
                keys[e.key] = k + 1
            }
        }
        if let list = o["review"] {
            guard case .array(let items) = list else { throw HistoryError(message: "'review' is a list") }
            for (k, item) in items.enumerated() where ReviewEntry(json: item) == nil {
                throw HistoryError(message: "review entry \(k + 1) does not read")
            }
        }
        guard let s = SyncState(json: v) else { throw HistoryError(message: "it does not read") }
        return s
    }
}
