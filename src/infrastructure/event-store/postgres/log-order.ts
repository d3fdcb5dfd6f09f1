// How the global log is ordered and read, so that a reader never skips an
// event and never sees one twice although appends commit out of order.
//
// The problem: `global_position` comes from a sequence at INSERT time, but
// transactions commit in another order. If T1 takes position 10 and T2 takes
// 11, and T2 commits first, a reader ordering by global_position sees 11,
// checkpoints there, and skips 10 when T1 commits.
//
// The mechanism: every event carries the id of the transaction that wrote it
// (`transaction_id`, an xid8: 64 bits, never wraps) and the log is ordered by
// (transaction_id, global_position) — that pair is the Position (commit,
// prepare). A reader only returns rows whose transaction_id is below the xmin
// of its own snapshot, `pg_snapshot_xmin(pg_current_snapshot())`: every
// transaction below xmin has already committed or aborted, and any transaction
// that starts later gets a larger id. So the rows a reader can return form a
// prefix of the final order that only ever grows at its end: once a reader has
// returned position p, nothing at or below p can still appear. Within one
// statement the snapshot that defines xmin is the snapshot that reads the
// rows, so every committed row below xmin is visible to that same read.
//
// Why not the alternatives: serializing appends behind one lock gives true
// commit order but makes every append wait for the previous one's WAL flush,
// which defeats group commit (throughput = 1 / fsync latency). Reading the WAL
// (logical decoding) needs replication privileges and a slot to manage.
//
// The order is transaction-start order (xid assignment), not wall-clock commit
// order; the port only needs a total order in which readers never skip and
// never go back, and EventStoreDB's (commit, prepare) compares the same way.
//
// The cost: a transaction that holds an xid for a long time — anywhere on the
// server, since xids are cluster-wide — holds xmin back, so events committed
// after it become readable only when it ends. That delays visibility; it never
// reorders or loses events. An idle-in-transaction session that has written
// something stalls readers until it ends (idle_in_transaction_session_timeout
// bounds that on a server where it matters).
import type { CountAllOptions, LogFilter, Position } from '../port.js';

/** Rows below this are final: no transaction that could still add one is running. */
const STABLE = `(select pg_snapshot_xmin(pg_current_snapshot()))`;

export const EVENT_COLUMNS = `transaction_id::text as commit_position, global_position, stream_name, stream_revision,
  event_id, type, data, metadata, recorded_at`;

/** What an append hands back of the rows it wrote: their place; their type, data and metadata are the ones it sent. */
export const WRITTEN_COLUMNS = `transaction_id::text as commit_position, global_position, stream_name, stream_revision, event_id, recorded_at`;

/**
 * The stable part of the log strictly after $1/$2 (xid8 as text, bigint),
 * filtered by prefixes ($3 streams, $4 types; null = all), in log order, at
 * most $5 rows (null = all): `columns`, and `also` as one more condition.
 */
const logAfter = (columns: string, also = '') => `
  select ${columns}
    from events
   where transaction_id < ${STABLE}
     and (transaction_id, global_position) > ($1::xid8, $2::bigint)
     and ($3::text[] is null or stream_name ^@ any($3::text[]))
     and ($4::text[] is null or type ^@ any($4::text[]))${also}
   order by transaction_id, global_position
   limit $5`;

/** The events of the log after $1/$2 (logAfter). */
export const READ_ALL_SQL = logAfter(EVENT_COLUMNS);

/**
 * How many rows READ_ALL_SQL returns at or before ($6, $7), at most $5:
 * entries of the log-order index, the events' data never read.
 */
export const COUNT_ALL_SQL = `
  select count(*)::int as count
    from (${logAfter(
      '1',
      `
     and (transaction_id, global_position) <= ($6::xid8, $7::bigint)`,
    )}) counted`;

/** Parameters of COUNT_ALL_SQL; without `upTo`, the last position there can be. */
export function countAllParams(options: CountAllOptions): unknown[] {
  const upTo = options.upTo ?? { commit: 2n ** 64n - 1n, prepare: 2n ** 63n - 1n };
  return [...readAllParams(options.after, options.filter, options.limit), upTo.commit.toString(), upTo.prepare.toString()];
}

export const HEAD_POSITION_SQL = `
  select transaction_id::text as commit_position, global_position
    from events
   where transaction_id < ${STABLE}
   order by transaction_id desc, global_position desc
   limit 1`;

/**
 * READ_ALL_SQL for a subscription: the page, and whether events have
 * committed that this very read could not return yet (an older transaction
 * is still running), judged in the same statement and so at the same
 * horizon. Then a subscriber should look again soon rather than wait for its
 * poll interval, as the blocker may not be an append and so may end without
 * a NOTIFY. (Asked in a later statement, the question could come too late:
 * were the blocker to end in between, nothing would be pending any more,
 * although the read missed the event it was woken for.) Also the stable
 * log's last position at that horizon (head_commit, head_prepare): a page
 * that is not full examined everything up to it, so a filtered subscription
 * reads on from there, not again from its last match (from the log's start,
 * when nothing matched yet). An empty page is one row of nulls carrying these.
 * `pending` asks whether the log's last transaction id reaches the horizon,
 * not `exists (… where transaction_id >= horizon)`: the planner costed that
 * as a sequential scan expected to stop early, and with nothing pending it
 * read the whole table on every page (1.3 ms at 4,000 events, growing with
 * the log); the last id is one step down the log-order index.
 */
export const READ_PAGE_SQL = `
  select page.*, beyond.pending, beyond.head_commit, beyond.head_prepare
    from (select coalesce((select transaction_id from events order by transaction_id desc limit 1) >= ${STABLE}, false) as pending,
                 head.transaction_id::text as head_commit, head.global_position as head_prepare
            from (select 1) one
            left join lateral (select transaction_id, global_position from events where transaction_id < ${STABLE}
                                order by transaction_id desc, global_position desc limit 1) head on true) beyond
    left join lateral (${READ_ALL_SQL}) page on true
   order by page.commit_position::xid8, page.global_position`;

/** Parameters of READ_ALL_SQL. Before every real position: (0, 0). */
export function readAllParams(after: Position | undefined, filter: LogFilter | undefined, maxCount: number | undefined): unknown[] {
  const nonEmpty = (list: readonly string[] | undefined) => (list && list.length > 0 ? [...list] : null);
  return [
    (after?.commit ?? 0n).toString(),
    (after?.prepare ?? 0n).toString(),
    nonEmpty(filter?.streamPrefixes),
    nonEmpty(filter?.eventTypePrefixes),
    maxCount ?? null,
  ];
}
