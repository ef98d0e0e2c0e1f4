// Columns straight from a store file's task records, with no Task built: names are interned by
// their bytes, so a name that repeats costs a hash and a compare, not a String. The store
// loader uses this so that a read-only query on a large store never builds its tasks.

import KeptRules
import KeptDomain
import KeptFiles

extension TaskIndex {
    /// Builds the columns of records one at a time.
    package struct RecordLoader {
        package var index: TaskIndex
        package var names = ByteInterner()
        /// Repeat texts and rules by their bytes, and each pair of them to its frequency column
        /// value: most stores repeat a few rules.
        package var rules = ByteInterner()
        package var frequencies: [Int: Int8] = [:]
        package var ruleCount: Int32 = 0
        package let ds: Int

        package init(reserving n: Int, dayStart: WallTime) {
            index = TaskIndex(reserving: n, dayStart: dayStart)
            ds = dayStart.minuteOfDay
        }

        /// The id of a name, and for a status (kind 2) its StatusKind's raw value.
        @inline(__always)
        package mutating func intern(_ ref: JSONStringRef, _ kind: UInt8, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) -> (id: Int32, aux: UInt8) {
            if !ref.escaped, let found = names.find(b, ref.start, ref.count, kind) { return found }
            let id = index.intern(r.string(ref), kind)
            let aux: UInt8 = kind != 2 ? 0 : (r.text(ref, is: "open") ? StatusKind.open : (r.text(ref, is: "done") ? StatusKind.done
                : (r.text(ref, is: "archived") ? StatusKind.archived : StatusKind.other))).rawValue
            if !ref.escaped { names.insert(b, ref.start, ref.count, kind, id, aux: aux) }
            return (id, aux)
        }

        package mutating func append(_ t: TaskRecord, _ r: JSONReader) {
            r.bytes.withUnsafeBufferPointer { b in append(t, b, r) }
        }

        private mutating func append(_ t: TaskRecord, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) {
            for g in t.tags { index.tagIDs.append(intern(g, 0, b, r).id) }
            index.tagStart.append(Int32(index.tagIDs.count))
            for n in t.notes { index.noteIDs.append(intern(n, 0, b, r).id) }
            index.noteStart.append(Int32(index.noteIDs.count))
            index.project.append(t.project.map { intern($0, 0, b, r).id } ?? -1)
            index.area.append(t.area.map { intern($0, 1, b, r).id } ?? -1)
            if let s = t.status {
                let (id, kind) = intern(s, 2, b, r)
                index.statusKind.append(StatusKind.of(raw: kind))
                index.statusID.append(id)
            } else {
                index.statusKind.append(.open)
                let id = index.intern("open", 2)
                index.statusID.append(id)
            }
            index.priority.append(UInt8(t.priority.rawValue))
            index.appendDue(t.due, ds)
            let freq: Int8 = t.hasRepeat ? frequency(t, b, r) : -1
            index.repeatFreq.append(freq)
            index.estimate.append(t.estimate.map { Int32(clamping: $0.minutes) } ?? -1)
            index.created.append(t.createdAt.seconds)
            // Only a change the creation and completion do not already tell (docs/STORE.md: a
            // record without `modifiedAt` changed last at the later of the two).
            if let m = t.modifiedAt, m.seconds != TaskIndex.impliedModified(t.createdAt.seconds, t.completedAt?.seconds) {
                index.modifiedRows.append(Int32(index.count))
                index.modifiedSeconds.append(m.seconds)
            }
            index.completed.append(t.completedAt?.seconds ?? Int64.min)
            index.held.append(t.heldUntil.map { Int32($0.dayNumber) } ?? TaskIndex.none)
            index.ids.append(t.id)
            index.userEstimate.append(t.estimate.map { $0.source == .user ? Int32(clamping: $0.minutes) : -1 } ?? -1)
            index.hasGoal.append(t.goal != nil)
            index.parent.append(t.parent ?? 0)
            for rem in t.reminders {
                index.reminderRows.append(Int32(index.count))
                index.reminderMinutes.append(TaskIndex.civilMinute(rem.at))
            }
            span(t.title, r)
            span(t.description ?? .empty, r)
            index.count += 1
        }

        /// Where a string's text is: in the file itself, or decoded when it has escapes.
        package mutating func span(_ ref: JSONStringRef, _ r: JSONReader) {
            if ref.escaped {
                index.textSpans.append(-1 - index.decoded.count)
                r.appendText(ref, to: &index.decoded)
                index.textSpans.append(-1 - index.decoded.count)
            } else {
                index.textSpans.append(ref.start)
                index.textSpans.append(ref.end)
            }
        }

        /// The frequency column value of a record's repeat, as the Task's RepeatSpec reads it:
        /// worked out once for each pair of text and rule spelled alike.
        package mutating func frequency(_ t: TaskRecord, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) -> Int8 {
            var key: Int? = nil
            if !t.repeatText.escaped, t.repeatRRULE?.escaped != true {
                let text = ruleID(t.repeatText, 0, b)
                let rule = t.repeatRRULE.map { ruleID($0, 1, b) } ?? -1
                key = Int(text) << 32 | Int(UInt32(bitPattern: rule))
            }
            if let key, let f = frequencies[key] { return f }
            let text = r.string(t.repeatText)
            let spec = RepeatSpec(text: text, rrule: t.repeatRRULE.map { r.string($0) }, anchor: nil)
            let f = spec.rule?.frequency.code ?? 4
            if let key { frequencies[key] = f }
            return f
        }

        /// A number for the bytes of a repeat's text (kind 0) or rule (kind 1).
        package mutating func ruleID(_ ref: JSONStringRef, _ kind: UInt8, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
            if let found = rules.find(b, ref.start, ref.count, kind) { return found.id }
            ruleCount += 1
            rules.insert(b, ref.start, ref.count, kind, ruleCount)
            return ruleCount
        }
    }
}
