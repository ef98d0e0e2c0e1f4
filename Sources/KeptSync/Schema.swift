// The server's schema (docs/SYNC.md, "The server"): the tables, their row-level security, the
// two group roles and the merge functions, as numbered migrations `Accounts.initialize` applies
// in one transaction. Every statement is its own text, because `PQexecParams` takes one.

/// The schema `kept` and what this build knows of it.
enum Schema {
    /// The version this build makes, and the newest it works with.
    static let version = 2

    /// Each migration leads from the version before it to `version`. A migration, once
    /// released, is history: a fresh init runs them all in turn, so it ends where an upgrade does.
    static let migrations: [(version: Int, statements: [String])] = [(1, version1), (2, version2)]

    /// The key of the advisory lock two inits on one database take in turn. An advisory lock
    /// rather than a lock on `kept.meta`, because before the first init there is no table to lock.
    static let initLock = "4919131752990654516"

    /// The SQLSTATE `kept.push` raises when the role has no row in `kept.accounts`. Class KA is
    /// not one of PostgreSQL's, so no other error can carry it.
    static let noAccountState = "KA001"

    /// What the database holds under the name `kept`.
    enum Found: Equatable {
        /// No schema `kept`, or an empty one: init may make it.
        case none
        /// A schema `kept` with objects but no `kept.meta`: not Kept's, left alone.
        case foreign
        /// Kept's schema at this version (nil: `kept.meta` has no row, which init does not leave).
        case version(Int?)
    }

    /// Reads what the database holds, from the catalogs (readable by every role, so a role that
    /// may not use the schema still learns it is there).
    static func found(on c: PGConnection) -> Result<Found, PGError> {
        let q = """
            SELECT EXISTS (SELECT FROM pg_catalog.pg_namespace WHERE nspname = 'kept'),
                   EXISTS (SELECT FROM pg_catalog.pg_class r JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
                           WHERE n.nspname = 'kept' AND r.relname = 'meta'),
                   EXISTS (SELECT FROM pg_catalog.pg_class r JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
                           WHERE n.nspname = 'kept')
                   OR EXISTS (SELECT FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
                              WHERE n.nspname = 'kept')
            """
        switch c.exec(q) {
        case .failure(let e): return .failure(e)
        case .success(let rows):
            guard let row = rows.rows.first, row.count == 3 else { return .success(.none) }
            let hasSchema = row[0] == "t", hasMeta = row[1] == "t", hasObjects = row[2] == "t"
            if !hasSchema { return .success(.none) }
            if !hasMeta { return .success(hasObjects ? .foreign : .none) }
        }
        switch c.exec("SELECT schema_version FROM kept.meta") {
        case .failure(let e): return .failure(e)
        case .success(let rows): return .success(.version(rows.scalar.flatMap { Int($0) }))
        }
    }

    // MARK: version 1

    /// The kinds of item, as `SyncKind` names them.
    static let kinds = "'task', 'project', 'area', 'filter', 'setting'"

    /// A stamp's text form (`HLC.description`): fixed widths, so texts compare as stamps do.
    static let stampPattern = "^[0-9]{13}-[0-9a-f]{4}-[0-9a-f]{1,32}$"

    /// What lets the functions find an account's rows through their indexes, so that a call
    /// costs what it touches, not what the account holds. `current_user` is a `name`, whose
    /// collation ("C") is not the columns' ("default"), so `account = current_user` is no
    /// index condition: every lookup of a change id scanned the whole of `kept.pushes`, and
    /// every pull the whole of `kept.items` (bench/README.md, "Sync"). The functions compare
    /// with a `text` variable (`kept.version`, with `COLLATE "default"`), and plan generically:
    /// a plan made for the account's own value goes by the table's statistics, which say that
    /// an account made since the last ANALYZE holds nothing, and then finds an item through
    /// `items_account_version` by the account alone, reading every item the account holds by
    /// then. (The policies keep `current_user`: they filter the rows the indexes find.)
    static let findsByIndex = "SET plan_cache_mode = force_generic_plan"

    static let version1: [String] = [
        "CREATE SCHEMA IF NOT EXISTS kept",
        "REVOKE ALL ON SCHEMA kept FROM PUBLIC",

        // Roles belong to the cluster, not the database: a second database's init finds them.
        // One made by hand with powers an account must not inherit is refused, not used.
        #"""
        DO $roles$
        BEGIN
          IF EXISTS (SELECT FROM pg_catalog.pg_roles
                     WHERE rolname IN ('kept_writer', 'kept_reader') AND (rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb)) THEN
            RAISE EXCEPTION 'the role kept_writer or kept_reader exists with powers Kept''s accounts must not have'
              USING ERRCODE = '42501';
          END IF;
          IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'kept_writer') THEN
            CREATE ROLE kept_writer NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
          END IF;
          IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'kept_reader') THEN
            CREATE ROLE kept_reader NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
          END IF;
        END
        $roles$
        """#,

        // One row; the unique index on a constant keeps it one.
        """
        CREATE TABLE kept.meta (
          schema_version int NOT NULL,
          max_field_bytes int NOT NULL DEFAULT 65536 CHECK (max_field_bytes > 0)
        )
        """,
        "CREATE UNIQUE INDEX meta_one_row ON kept.meta ((true))",
        "INSERT INTO kept.meta (schema_version) VALUES (1)",

        """
        CREATE TABLE kept.accounts (
          name text PRIMARY KEY DEFAULT current_user,
          version bigint NOT NULL DEFAULT 0
        )
        """,
        // Stamps compare as text in byte order (COLLATE "C"), whatever the database's locale.
        """
        CREATE TABLE kept.items (
          account text NOT NULL DEFAULT current_user,
          kind text NOT NULL CHECK (kind IN (\(kinds))),
          key text NOT NULL CHECK (key <> ''),
          fields jsonb NOT NULL DEFAULT '{}',
          clocks jsonb NOT NULL DEFAULT '{}',
          deleted text COLLATE "C",
          version bigint NOT NULL,
          PRIMARY KEY (account, kind, key)
        )
        """,
        // Unique: one account's versions name one change each, which a pull's paging relies on.
        "CREATE UNIQUE INDEX items_account_version ON kept.items (account, version)",
        """
        CREATE TABLE kept.pushes (
          account text NOT NULL DEFAULT current_user,
          change_id text NOT NULL,
          result jsonb NOT NULL,
          PRIMARY KEY (account, change_id)
        )
        """,

        // Every account sees and changes only its own rows. FORCE holds the tables' owner to the
        // policies too; only a superuser (or a role with BYPASSRLS, which no Kept role has)
        // passes them.
        "ALTER TABLE kept.accounts ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE kept.accounts FORCE ROW LEVEL SECURITY",
        "CREATE POLICY own_account ON kept.accounts USING (name = current_user) WITH CHECK (name = current_user)",
        "ALTER TABLE kept.items ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE kept.items FORCE ROW LEVEL SECURITY",
        "CREATE POLICY own_items ON kept.items USING (account = current_user) WITH CHECK (account = current_user)",
        "ALTER TABLE kept.pushes ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE kept.pushes FORCE ROW LEVEL SECURITY",
        "CREATE POLICY own_pushes ON kept.pushes USING (account = current_user) WITH CHECK (account = current_user)",

        // The row of one item as a push answers with it (null when the account has none).
        // The functions name the account by a variable, never by `current_user` in a query:
        // see `findsByIndex`.
        """
        CREATE FUNCTION kept.item_row(p_kind text, p_key text) RETURNS jsonb
        LANGUAGE plpgsql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp \(findsByIndex)
        AS $item$
        DECLARE
          v_me text := current_user;
        BEGIN
          RETURN (SELECT jsonb_build_object('kind', i.kind, 'key', i.key, 'fields', i.fields, 'clocks', i.clocks,
                                            'deleted', i.deleted, 'version', i.version)
                  FROM kept.items i
                  WHERE i.account = v_me AND i.kind = p_kind AND i.key = p_key);
        END
        $item$
        """,
        pushFunction(notifies: false),
        """
        CREATE FUNCTION kept.pull(after bigint, lim int)
        RETURNS TABLE (kind text, key text, fields text, clocks text, deleted text, version bigint)
        LANGUAGE plpgsql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp \(findsByIndex)
        AS $pull$
        #variable_conflict use_column
        DECLARE
          v_me text := current_user;
        BEGIN
          RETURN QUERY
            SELECT i.kind, i.key, i.fields::text, i.clocks::text, i.deleted, i.version
            FROM kept.items i
            WHERE i.account = v_me AND i.version > after
            ORDER BY i.version
            LIMIT greatest(lim, 0);
        END
        $pull$
        """,
        """
        CREATE FUNCTION kept.version() RETURNS bigint
        LANGUAGE sql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp
        AS $version$
          SELECT a.version FROM kept.accounts a WHERE a.name = current_user COLLATE "default"
        $version$
        """,

        // What each group may do. A reader records nothing: its refusals are worked out again
        // at each push, so an account later made a writer is not held to an old "read-only".
        "GRANT USAGE ON SCHEMA kept TO kept_writer, kept_reader",
        "GRANT SELECT ON kept.meta TO kept_writer, kept_reader",
        "GRANT SELECT, INSERT, UPDATE ON kept.items, kept.pushes TO kept_writer",
        "GRANT SELECT, UPDATE ON kept.accounts TO kept_writer",
        "GRANT SELECT ON kept.items, kept.accounts, kept.pushes TO kept_reader",
        "REVOKE ALL ON FUNCTION kept.item_row(text, text), kept.push(jsonb), kept.pull(bigint, int), kept.version() FROM PUBLIC",
        """
        GRANT EXECUTE ON FUNCTION kept.item_row(text, text), kept.push(jsonb), kept.pull(bigint, int), kept.version()
          TO kept_writer, kept_reader
        """,
    ]

    // MARK: version 2

    /// A live item's columns as the reading functions return them (`kept.pull`'s order).
    static let itemColumns = "i.kind, i.key, i.fields::text, i.clocks::text, i.deleted, i.version"

    /// A function's header: run as the caller, under the policies, with a safe path, planned
    /// generically (see `findsByIndex`).
    static let reader = "LANGUAGE plpgsql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp \(findsByIndex)"

    /// Version 2 (issue 31): live changes and large accounts. Each account gets a channel that
    /// a push notifies; the first pull reads the account's head, its live items in key order,
    /// and a summary that confirms the complete list; a query on the server reads the live
    /// items with its tasks narrowed on indexed expressions. Every reading function is one
    /// statement, so it reads one snapshot whatever the caller's isolation.
    static let version2: [String] = [
        // The channel a push notifies. PostgreSQL lets any role LISTEN on any channel name
        // (LISTEN checks no privilege), so the name is the secret: 122 random bits of
        // gen_random_uuid (a strong random source), readable only through the policy on
        // `kept.accounts`. A volatile default fills each existing row with its own value.
        """
        ALTER TABLE kept.accounts
          ADD COLUMN channel text NOT NULL DEFAULT ('kept_' || replace(pg_catalog.gen_random_uuid()::text, '-', ''))
          CHECK (channel ~ '^kept_[0-9a-f]{32}$')
        """,
        "CREATE UNIQUE INDEX accounts_channel ON kept.accounts (channel)",
        // A writer updates only its version (the push's lock); its channel stays as made.
        "REVOKE UPDATE ON kept.accounts FROM kept_writer",
        "GRANT UPDATE (version) ON kept.accounts TO kept_writer",

        // The first pull's pages: live items in byte order of (kind, key), whatever the
        // database's collation. Partial: tombstones are never listed.
        #"CREATE INDEX items_live_keys ON kept.items (account, kind COLLATE "C", key COLLATE "C") WHERE deleted IS NULL"#,
        // A query on the server narrows its tasks on their status and project, tested on the
        // account's task rows, not through an index. Under row-level security a condition
        // whose operator is not leakproof (`->>` is not) is tested only after the policy, so
        // an index on `fields ->> 'status'` would not be used; status and project columns of
        // their own (generated) were, but with them the push's generic plan for finding an
        // item chose `items_account_version` by the account alone over the primary key (the
        // two cost the same on a new table), and every change of a large push read the
        // account's items: a whole push of 100,000 tasks took 91 s against 18.7 s.
        // `SyncServerScaleTests` holds the push to the primary key.

        pushFunction(notifies: true),
        """
        CREATE FUNCTION kept.channel() RETURNS text
        LANGUAGE sql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp
        AS $channel$
          SELECT a.channel FROM kept.accounts a WHERE a.name = current_user COLLATE "default"
        $channel$
        """,
        // The account's version, its live items counted, and the `lim` most recently changed.
        // No row: the role has no account. A row with a null kind: no live item.
        """
        CREATE FUNCTION kept.head(lim int)
        RETURNS TABLE (account_version bigint, live bigint, kind text, key text, fields text, clocks text, deleted text, version bigint)
        \(reader)
        AS $head$
        #variable_conflict use_column
        DECLARE
          v_me text := current_user;
        BEGIN
          RETURN QUERY
            SELECT a.version, n.live, r.kind, r.key, r.fields, r.clocks, r.deleted, r.version
            FROM kept.accounts a
            CROSS JOIN (SELECT count(*) AS live FROM kept.items i WHERE i.account = v_me AND i.deleted IS NULL) n
            LEFT JOIN LATERAL (
              SELECT \(itemColumns)
              FROM kept.items i
              WHERE i.account = v_me AND i.deleted IS NULL
              ORDER BY i.version DESC
              LIMIT greatest(lim, 0)
            ) r (kind, key, fields, clocks, deleted, version) ON true
            WHERE a.name = v_me
            ORDER BY r.version DESC NULLS LAST;
        END
        $head$
        """,
        // Two statements for the two cases rather than one with an OR: a generic plan cannot
        // drop an OR on a parameter, and would then scan the account's items from the first.
        """
        CREATE FUNCTION kept.list(after_kind text, after_key text, lim int)
        RETURNS TABLE (kind text, key text, fields text, clocks text, deleted text, version bigint)
        \(reader)
        AS $list$
        #variable_conflict use_column
        DECLARE
          v_me text := current_user;
        BEGIN
          IF after_kind IS NULL OR after_key IS NULL THEN
            RETURN QUERY
              SELECT \(itemColumns)
              FROM kept.items i
              WHERE i.account = v_me AND i.deleted IS NULL
              ORDER BY i.kind COLLATE "C", i.key COLLATE "C"
              LIMIT greatest(lim, 0);
          ELSE
            RETURN QUERY
              SELECT \(itemColumns)
              FROM kept.items i
              WHERE i.account = v_me AND i.deleted IS NULL
                AND (i.kind COLLATE "C", i.key COLLATE "C") > (after_kind, after_key)
              ORDER BY i.kind COLLATE "C", i.key COLLATE "C"
              LIMIT greatest(lim, 0);
          END IF;
        END
        $list$
        """,
        // The checksum is SyncSummary's: the XOR of the first 8 bytes of md5("kind/key"), the
        // bigint holding the UInt64's bits (bit_xor: PostgreSQL 14 or later).
        """
        CREATE FUNCTION kept.summary()
        RETURNS TABLE (version bigint, live bigint, checksum bigint)
        \(reader)
        AS $summary$
        #variable_conflict use_column
        DECLARE
          v_me text := current_user;
        BEGIN
          RETURN QUERY
            SELECT a.version, s.live, s.checksum
            FROM kept.accounts a
            CROSS JOIN (
              SELECT count(*) AS live,
                     coalesce(bit_xor(('x' || left(md5(i.kind || '/' || i.key), 16))::bit(64)::bigint), 0) AS checksum
              FROM kept.items i
              WHERE i.account = v_me AND i.deleted IS NULL AND i.kind <> 'setting'
            ) s
            WHERE a.name = v_me;
        END
        $summary$
        """,
        itemsFunction,

        "REVOKE ALL ON FUNCTION kept.channel(), kept.head(int), kept.list(text, text, int), kept.summary(), kept.items(text[], text, boolean) FROM PUBLIC",
        """
        GRANT EXECUTE ON FUNCTION kept.channel(), kept.head(int), kept.list(text, text, int), kept.summary(), kept.items(text[], text, boolean)
          TO kept_writer, kept_reader
        """,
    ]

    /// How `kept.items` is planned: for the values of each call (it reads the account's items
    /// whatever it is given, so the values can only help).
    static let plansForValues = "SET plan_cache_mode = force_custom_plan"

    /// `kept.items(statuses, project, closed)`: every live item but the tasks the narrowing
    /// rules out, with the account's version on each row (one row with a null kind: no item).
    /// One statement for each narrowing, none with an OR on a parameter.
    /// Every live task of the account.
    static let everyTask = """

                      SELECT \(itemColumns)
                      FROM kept.items i
                      WHERE i.account = v_me AND i.kind = 'task' AND i.deleted IS NULL
        """

    /// The live tasks whose keys `v_keys` holds: a narrowing's, with their parents (below).
    static let chosenTasks = """

                      SELECT \(itemColumns)
                      FROM kept.items i
                      WHERE i.account = v_me AND i.kind = 'task' AND i.key = ANY (v_keys) AND i.deleted IS NULL
        """

    static var itemsFunction: String {
        // The tasks narrowed, each with its place among all the account's live tasks in a
        // first pull's order (`SyncItems.ranks`): the 50 items of the highest versions, of
        // every kind, latest first, then the rest by key in byte order. The place is the id a
        // store synced from nothing gives the task, so a narrowed query shows the same ids.
        func statement(_ tasks: String) -> String {
            """
            RETURN QUERY
                  SELECT a.version, r.kind, r.key, r.fields, r.clocks, r.deleted, r.version, r.place
                  FROM kept.accounts a
                  LEFT JOIN LATERAL (
                    SELECT \(itemColumns), NULL::bigint
                    FROM kept.items i
                    WHERE i.account = v_me AND i.kind IN ('project', 'area', 'filter', 'setting') AND i.deleted IS NULL
                    UNION ALL
                    SELECT t.kind, t.key, t.fields, t.clocks, t.deleted, t.version, o.place
                    FROM (\(tasks)
                    ) t (kind, key, fields, clocks, deleted, version)
                    JOIN (
                      SELECT l.key, row_number() OVER (ORDER BY (f.key IS NULL), f.version DESC, l.key COLLATE "C") AS place
                      FROM kept.items l
                      LEFT JOIN (
                        SELECT i.kind, i.key, i.version FROM kept.items i
                        WHERE i.account = v_me AND i.deleted IS NULL
                        ORDER BY i.version DESC LIMIT 50
                      ) f ON f.kind = l.kind AND f.key = l.key
                      WHERE l.account = v_me AND l.kind = 'task' AND l.deleted IS NULL
                    ) o ON o.key = t.key
                  ) r (kind, key, fields, clocks, deleted, version, place) ON true
                  WHERE a.name = v_me;
            """
        }
        // As `TaskNarrowing.admits` reads a task's fields: a status that is not there is "".
        let byStatus = "\n            AND coalesce(i.fields ->> 'status', '') = ANY (statuses)"
        let byProject = "\n            AND (i.fields ->> 'project') = project"
        let byOpen = "\n            AND coalesce(i.fields ->> 'status', '') NOT IN ('done', 'archived')"
        // The narrowed tasks' keys, one statement for each narrowing (no OR on a parameter),
        // each through its index.
        var branches: [String] = []
        for open in [false, true] {
            for (s, p) in [(false, false), (true, false), (false, true), (true, true)] where s || p || open {
                let test = "\(s ? "statuses IS NOT NULL" : "statuses IS NULL") AND \(p ? "project IS NOT NULL" : "project IS NULL") AND \(open ? "NOT closed" : "closed")"
                let narrowing = (s ? byStatus : "") + (p ? byProject : "") + (open ? byOpen : "")
                branches.append("""
                    \(branches.isEmpty ? "IF" : "ELSIF") \(test) THEN
                        v_keys := ARRAY(SELECT i.key FROM kept.items i
                                        WHERE i.account = v_me AND i.kind = 'task' AND i.deleted IS NULL\(narrowing));
                    """)
            }
        }
        return """
            CREATE FUNCTION kept.items(statuses text[], project text, closed boolean)
            RETURNS TABLE (account_version bigint, kind text, key text, fields text, clocks text, deleted text, version bigint, place bigint)
            LANGUAGE plpgsql STABLE SECURITY INVOKER SET search_path = pg_catalog, pg_temp \(plansForValues)
            AS $items$
            #variable_conflict use_column
            DECLARE
              v_me text := current_user;
              v_keys text[] := '{}';
              v_more text[];
            BEGIN
              -- STABLE: every statement here reads the calling query's snapshot.
              IF statuses IS NULL AND project IS NULL AND closed THEN
                \(statement(everyTask))
                RETURN;
              END IF;
              \(branches.joined(separator: "\n  "))
              END IF;
              -- The parents of the tasks chosen, and theirs, up to the top: a subtask shows its
              -- parent whatever the parent's status. Each round looks the parents up by key.
              v_more := v_keys;
              LOOP
                v_more := ARRAY(
                  SELECT p.key FROM kept.items c
                  JOIN kept.items p ON p.account = v_me AND p.kind = 'task' AND p.key = c.fields ->> 'parent' AND p.deleted IS NULL
                  WHERE c.account = v_me AND c.kind = 'task' AND c.key = ANY (v_more)
                  EXCEPT SELECT unnest(v_keys));
                EXIT WHEN cardinality(v_more) = 0;
                v_keys := v_keys || v_more;
              END LOOP;
              \(statement(chosenTasks))
            END
            $items$
            """
    }

    /// `kept.push(changes)`: every change of one push merged in one transaction (the statement
    /// that calls it), so a half-applied push cannot be (docs/SYNC.md, "Push" and "Merging").
    /// SECURITY INVOKER: it runs as the account's role, under the row-level policies. Version 1
    /// made it without `notifies`; version 2 replaces it with the same merge, which also
    /// notifies the account's channel (docs/SYNC.md, "Live changes").
    static func pushFunction(notifies: Bool) -> String {
        // The parts that differ, each empty in version 1's text, which stays as it was made.
        let create = notifies ? "CREATE OR REPLACE FUNCTION" : "CREATE FUNCTION"
        let channelVariable = notifies ? "\n  v_channel text;" : ""
        let lockReturns = notifies ? "a.version, a.channel INTO v_version, v_channel" : "a.version INTO v_version"
        // pg_notify inside the push's transaction: PostgreSQL delivers it at commit, and never
        // for a push rolled back. The payload is the version only; the channel is the secret.
        let notify = notifies ? "\n    PERFORM pg_notify(v_channel, v_version::text);" : ""
        return #"""
        \#(create) kept.push(changes jsonb) RETURNS jsonb
        LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = pg_catalog, pg_temp \#(findsByIndex)
        AS $push$
        DECLARE
          v_me text := current_user;
          v_version bigint;
          v_limit int;
          v_writer boolean;
          -- The answers, appended in place (a jsonb array grown with || is copied whole at
          -- every change: a push of n changes cost n*n/2 element copies).
          v_answers jsonb[] := '{}';
          v_change jsonb;
          v_id text;
          v_kind text;
          v_key text;
          v_fields jsonb;
          v_clocks jsonb;
          v_del text;
          v_res text;
          v_problem text;
          v_result jsonb;
          v_stored jsonb;
          v_big text;
          v_f text;
          v_h text;
          v_cur kept.items%ROWTYPE;
          v_exists boolean;
          v_changed boolean;
          v_bumped boolean := false;\#(channelVariable)
        BEGIN
          IF jsonb_typeof(changes) IS DISTINCT FROM 'array' THEN
            RAISE EXCEPTION 'kept.push takes a JSON array of changes' USING ERRCODE = '22023';
          END IF;

          -- A role that may not write items can neither lock its account row (FOR UPDATE and
          -- UPDATE both need the UPDATE privilege) nor change anything: its changes are refused.
          v_writer := has_table_privilege('kept.items', 'INSERT') AND has_table_privilege('kept.items', 'UPDATE');
          IF v_writer THEN
            -- Rule 1: the account's row, locked to the end of the transaction. Pushes of one
            -- account run one after another, so versions are handed out and committed in order
            -- and a pull never passes a version still to commit.
            UPDATE kept.accounts a SET version = a.version WHERE a.name = v_me RETURNING \#(lockReturns);
          ELSE
            SELECT a.version INTO v_version FROM kept.accounts a WHERE a.name = v_me;
          END IF;
          IF v_version IS NULL THEN
            RAISE EXCEPTION 'the role % has no Kept account', current_user USING ERRCODE = 'KA001';
          END IF;
          SELECT m.max_field_bytes INTO v_limit FROM kept.meta m;

          FOR v_change IN SELECT e.value FROM jsonb_array_elements(changes) WITH ORDINALITY AS e(value, n) ORDER BY e.n
          LOOP
            v_id := CASE WHEN jsonb_typeof(v_change -> 'id') = 'string' THEN v_change ->> 'id' END;
            v_kind := v_change ->> 'kind';
            v_key := CASE WHEN jsonb_typeof(v_change -> 'key') = 'string' THEN v_change ->> 'key' END;

            -- Rule 2: a change id seen before answers as it did then, and nothing is applied
            -- again. A refusal comes with the item as it is now.
            IF v_id IS NOT NULL THEN
              SELECT p.result INTO v_stored FROM kept.pushes p WHERE p.account = v_me AND p.change_id = v_id;
              IF FOUND THEN
                IF v_stored ->> 'outcome' = 'refused' THEN
                  v_stored := v_stored || jsonb_build_object('current', kept.item_row(v_kind, v_key));
                END IF;
                v_answers := array_append(v_answers, v_stored || '{"duplicate": true}'::jsonb);
                CONTINUE;
              END IF;
            END IF;

            -- Rule 3: a read-only role. Not recorded (see the grants).
            IF NOT v_writer THEN
              v_answers := array_append(v_answers, jsonb_build_object(
                'id', v_id, 'outcome', 'refused', 'duplicate', false, 'reason', 'read-only',
                'current', kept.item_row(v_kind, v_key)));
              CONTINUE;
            END IF;

            -- Rule 4: a change that does not read.
            v_problem := NULL;
            IF jsonb_typeof(v_change) IS DISTINCT FROM 'object' THEN
              v_problem := 'a change is not an object';
            ELSIF v_id IS NULL OR v_id = '' THEN
              v_problem := 'the change has no id';
            ELSIF octet_length(v_id) > 200 THEN
              v_problem := 'the change id is longer than 200 bytes';
            ELSIF jsonb_typeof(v_change -> 'kind') IS DISTINCT FROM 'string' OR v_kind NOT IN ('task', 'project', 'area', 'filter', 'setting') THEN
              v_problem := format('unknown kind %s', left(coalesce(v_change -> 'kind', 'null'::jsonb)::text, 60));
            ELSIF v_key IS NULL OR v_key = '' THEN
              v_problem := 'the key is empty';
            ELSIF octet_length(v_key) > 1000 THEN
              v_problem := 'the key is longer than 1000 bytes';
            ELSIF jsonb_typeof(v_change -> 'fields') IS DISTINCT FROM 'object' THEN
              v_problem := 'fields is not an object';
            ELSIF jsonb_typeof(v_change -> 'clocks') IS DISTINCT FROM 'object' THEN
              v_problem := 'clocks is not an object';
            ELSIF coalesce(jsonb_typeof(v_change -> 'deleted'), 'null') NOT IN ('null', 'string')
                  OR (v_change ->> 'deleted') !~ '^[0-9]{13}-[0-9a-f]{4}-[0-9a-f]{1,32}$' THEN
              v_problem := format('deleted is not a clock: %s', left((v_change -> 'deleted')::text, 60));
            ELSIF coalesce(jsonb_typeof(v_change -> 'restored'), 'null') NOT IN ('null', 'string')
                  OR (v_change ->> 'restored') !~ '^[0-9]{13}-[0-9a-f]{4}-[0-9a-f]{1,32}$' THEN
              v_problem := format('restored is not a clock: %s', left((v_change -> 'restored')::text, 60));
            ELSE
              v_fields := v_change -> 'fields';
              v_clocks := v_change -> 'clocks';
              SELECT format('the clock of %s is not a clock: %s', left(to_jsonb(k.key)::text, 60), left(k.value::text, 60))
                INTO v_problem
                FROM jsonb_each(v_clocks) k
                WHERE jsonb_typeof(k.value) <> 'string' OR (k.value #>> '{}') !~ '^[0-9]{13}-[0-9a-f]{4}-[0-9a-f]{1,32}$'
                ORDER BY k.key LIMIT 1;
              IF v_problem IS NULL THEN
                SELECT format('the field %s has no clock', left(to_jsonb(k)::text, 60)) INTO v_problem
                  FROM jsonb_object_keys(v_fields) k WHERE NOT (v_clocks ? k) ORDER BY k LIMIT 1;
              END IF;
              IF v_problem IS NULL THEN
                SELECT format('the field name %s… is longer than 200 bytes', left(to_jsonb(k)::text, 60)) INTO v_problem
                  FROM jsonb_object_keys(v_clocks) k WHERE octet_length(k) > 200 ORDER BY k LIMIT 1;
              END IF;
            END IF;
            IF v_problem IS NOT NULL THEN
              v_result := jsonb_build_object('id', v_id, 'outcome', 'refused', 'reason', 'invalid', 'detail', v_problem,
                                             'current', kept.item_row(v_kind, v_key));
              -- Recorded only under an id that can be looked up again.
              IF v_id IS NOT NULL AND v_id <> '' AND octet_length(v_id) <= 200 THEN
                INSERT INTO kept.pushes (change_id, result) VALUES (v_id, v_result);
              END IF;
              v_answers := array_append(v_answers, v_result || '{"duplicate": false}'::jsonb);
              CONTINUE;
            END IF;

            -- Rule 5: a value longer than the server takes, in bytes of its JSON text.
            SELECT k.key INTO v_big FROM jsonb_each(v_fields) k WHERE octet_length(k.value::text) > v_limit ORDER BY k.key LIMIT 1;
            IF FOUND THEN
              v_result := jsonb_build_object('id', v_id, 'outcome', 'refused', 'reason', 'too-large', 'field', v_big,
                                             'limit', v_limit, 'current', kept.item_row(v_kind, v_key));
              INSERT INTO kept.pushes (change_id, result) VALUES (v_id, v_result);
              v_answers := array_append(v_answers, v_result || '{"duplicate": false}'::jsonb);
              CONTINUE;
            END IF;

            -- A change that carries both stamps is a delete or a restore, whichever came last
            -- (on a tie, the delete).
            v_del := v_change ->> 'deleted';
            v_res := v_change ->> 'restored';
            IF v_del IS NOT NULL AND v_res IS NOT NULL THEN
              IF v_res COLLATE "C" > v_del COLLATE "C" THEN v_del := NULL; ELSE v_res := NULL; END IF;
            END IF;

            -- Rule 6: the item as the server holds it, locked.
            SELECT * INTO v_cur FROM kept.items i WHERE i.account = v_me AND i.kind = v_kind AND i.key = v_key FOR UPDATE;
            v_exists := FOUND;
            v_changed := NOT v_exists;
            IF NOT v_exists THEN
              v_cur.account := current_user;
              v_cur.kind := v_kind;
              v_cur.key := v_key;
              v_cur.fields := '{}';
              v_cur.clocks := '{}';
              v_cur.deleted := NULL;
            ELSIF v_cur.deleted IS NOT NULL THEN
              IF v_res IS NOT NULL AND v_res COLLATE "C" > v_cur.deleted COLLATE "C" THEN
                -- Restored after the delete: it lives again, and the fields merge below.
                v_cur.deleted := NULL;
                v_changed := true;
              ELSIF v_del IS NULL THEN
                -- An edit to an item deleted on another device: refused, with the tombstone.
                v_result := jsonb_build_object('id', v_id, 'outcome', 'refused', 'reason', 'deleted',
                                               'current', kept.item_row(v_kind, v_key));
                INSERT INTO kept.pushes (change_id, result) VALUES (v_id, v_result);
                v_answers := array_append(v_answers, v_result || '{"duplicate": false}'::jsonb);
                CONTINUE;
              END IF;
            END IF;

            IF v_del IS NOT NULL THEN
              -- Rule 7: a delete wins over every edit; the later of two deletes is kept. The
              -- fields stay, so an item restored later comes back whole.
              IF v_cur.deleted IS NULL OR v_del COLLATE "C" > v_cur.deleted COLLATE "C" THEN
                v_cur.deleted := v_del;
                v_changed := true;
              END IF;
            END IF;
            -- Rule 8: field by field, the later stamp wins; an equal or older one changes
            -- nothing, so a change sent twice is harmless. A delete's fields (the edits its
            -- device made before it) merge under the tombstone, for a restore to bring back.
            FOR v_f, v_h IN SELECT k.key, k.value #>> '{}' FROM jsonb_each(v_clocks) k ORDER BY k.key
            LOOP
              IF NOT (v_cur.clocks ? v_f) OR v_h COLLATE "C" > (v_cur.clocks ->> v_f) COLLATE "C" THEN
                v_cur.fields := v_cur.fields || jsonb_build_object(v_f, coalesce(v_fields -> v_f, 'null'::jsonb));
                v_cur.clocks := v_cur.clocks || jsonb_build_object(v_f, v_h);
                v_changed := true;
              END IF;
            END LOOP;

            -- Rule 9: a changed row takes the account's next version.
            IF v_changed THEN
              v_version := v_version + 1;
              v_bumped := true;
              IF v_exists THEN
                UPDATE kept.items i SET fields = v_cur.fields, clocks = v_cur.clocks, deleted = v_cur.deleted, version = v_version
                  WHERE i.account = v_me AND i.kind = v_kind AND i.key = v_key;
              ELSE
                INSERT INTO kept.items (kind, key, fields, clocks, deleted, version)
                  VALUES (v_kind, v_key, v_cur.fields, v_cur.clocks, v_cur.deleted, v_version);
              END IF;
            END IF;

            -- Rule 10: the answer is kept under the change id.
            v_result := jsonb_build_object('id', v_id, 'outcome', 'applied', 'current', NULL);
            INSERT INTO kept.pushes (change_id, result) VALUES (v_id, v_result);
            v_answers := array_append(v_answers, v_result || '{"duplicate": false}'::jsonb);
          END LOOP;

          IF v_bumped THEN
            UPDATE kept.accounts a SET version = v_version WHERE a.name = v_me;\#(notify)
          END IF;
          RETURN to_jsonb(v_answers);
        END
        $push$
        """#
    }
}
