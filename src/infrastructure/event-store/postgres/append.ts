// Appending with EventStoreDB's semantics, without a lock table.
//
// The common case is one INSERT ... SELECT: it reads the stream's last
// revision, checks the expected revision against it, and inserts the batch at
// the following revisions, all in one statement and one round trip. The
// unique (stream_name, stream_revision) index makes that safe under
// concurrency: two appends that read the same last revision both try to
// insert its successor; the second waits for the first and, if the first
// commits, fails with a unique violation. So a successful insert is always
// gap-free and at exactly the revision the check approved.
//
// Anything else — the check failing (0 rows), a unique violation on a
// revision or an event id, a deadlock between batches that share ids — goes
// to the slow path: a read of what is committed decides, in EventStoreDB's
// order, between an idempotent retry (every id of the batch already stored in
// this stream, in order, where the expectation puts them: return the original
// result), WrongExpectedVersion, IdempotencyConflict (ids stored elsewhere or
// in part), or trying again (a race that did not concern us, e.g. `any`).
// Nothing is written on any path but the successful insert.
//
// recordedAt is clock_timestamp() read once per statement, truncated to the
// millisecond and stored that way, so "as of" a reported recordedAt includes
// the event. It is taken just before the commit (not at transaction start),
// and raised to the stream's previous recordedAt when the server's clock has
// stepped back behind it: a later append to the same stream can only succeed
// on a snapshot that saw this one committed, so recordedAt never goes back
// within a stream.
import type pg from 'pg';
import { IdempotencyConflict, WrongExpectedVersion, type AppendResult, type ExpectedRevision } from '../port.js';
import { InvalidEventStoreInput, type AppendInput } from './input.js';
import { WRITTEN_COLUMNS } from './log-order.js';
import { rowsById, toPosition, writtenEvents, type WrittenRow } from './rows.js';

const MAX_ATTEMPTS = 100;

const APPEND_SQL = `
  with inserted as (
    insert into events (stream_name, stream_revision, event_id, type, data, metadata, recorded_at)
    select $1, head.revision + batch.ord, (batch.value->>'id')::uuid, batch.value->>'type', batch.value->'data', batch.value->'metadata',
           -- once per statement: a batch shares one recordedAt, never before the stream's previous one
           greatest((select date_trunc('milliseconds', clock_timestamp())), head.recorded_at)
      from (select coalesce(max(stream_revision), -1) as revision,
                   (select recorded_at from events where stream_name = $1 order by stream_revision desc limit 1) as recorded_at
              from events where stream_name = $1) as head,
           jsonb_array_elements($4::jsonb) with ordinality as batch(value, ord)
     where case $2::text when 'any' then true
                         when 'no_stream' then head.revision = -1
                         when 'stream_exists' then head.revision >= 0
                         else head.revision = $3::bigint end
     order by batch.ord
    returning ${WRITTEN_COLUMNS}
  )
  select * from inserted order by stream_revision`;

/** What is committed about a stream and a batch's ids; `base` is the revision before the batch's first event. */
const RESOLVE_SQL = `
  select (select max(stream_revision) from events where stream_name = $1) as current_revision,
         count(*) as found,
         coalesce(bool_and(stream_name = $1), false) as in_stream,
         min(stream_revision - array_position($2::uuid[], event_id)) as base_min,
         max(stream_revision - array_position($2::uuid[], event_id)) as base_max,
         (array_agg(event_id::text order by array_position($2::uuid[], event_id)))[1] as first_found
    from events where event_id = any($2::uuid[])`;

const POSITION_SQL = `select transaction_id::text as commit_position, global_position from events
  where stream_name = $1 and stream_revision = $2`;

/** The happy-path statement, also for running an append inside a transaction one controls (tests). */
export function appendQuery({ stream, events, expectedRevision }: AppendInput): pg.QueryConfig {
  const exact = typeof expectedRevision === 'number';
  return {
    name: 'event_store_append',
    text: APPEND_SQL,
    values: [
      stream,
      exact ? 'exact' : expectedRevision,
      exact ? expectedRevision : null,
      JSON.stringify(events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))),
    ],
  };
}

export async function appendBatch(pool: pg.Pool, input: AppendInput): Promise<AppendResult> {
  const query = appendQuery(input);
  for (let attempt = 1; ; attempt++) {
    try {
      // The inserted rows' places come back: the caller folds what it sent at them without reading them again.
      const written = writtenEvents(rowsById((await pool.query<WrittenRow>(query)).rows), input.events);
      const last = written?.at(-1);
      if (written && last) return { nextExpectedRevision: last.streamRevision, position: last.position, written };
    } catch (error) {
      if (!isRace(error)) throw translate(error);
    }
    const settled = await resolve(pool, input);
    if (settled) return settled;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`append to ${input.stream} lost ${attempt} races in a row`);
  }
}

function isRace(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  if (e.code === '40P01') return true; // deadlock between batches that share ids
  return e.code === '23505' && (e.constraint === 'events_stream_revision' || e.constraint === 'events_event_id');
}

interface ResolveRow {
  current_revision: string | null;
  found: string;
  in_stream: boolean;
  base_min: string | null;
  base_max: string | null;
  first_found: string | null;
}

/** The slow path: settles the append from what is committed, or returns undefined to try again. */
async function resolve(pool: pg.Pool, { stream, events, expectedRevision }: AppendInput): Promise<AppendResult | undefined> {
  const ids = events.map((event) => event.id);
  const row = (await pool.query<ResolveRow>({ name: 'event_store_append_resolve', text: RESOLVE_SQL, values: [stream, ids] })).rows[0]!;
  const found = Number(row.found);
  const current = row.current_revision === null ? -1 : Number(row.current_revision);
  const base = Number(row.base_min);
  if (found === events.length && row.in_stream && row.base_min === row.base_max && storedWhereExpected(expectedRevision, base)) {
    const last = base + events.length;
    const position = (
      await pool.query<{ commit_position: string; global_position: string }>({
        name: 'event_store_position',
        text: POSITION_SQL,
        values: [stream, last],
      })
    ).rows[0]!;
    return { nextExpectedRevision: last, position: toPosition(position.commit_position, position.global_position) };
  }
  if (!matches(expectedRevision, current)) throw new WrongExpectedVersion(stream, expectedRevision, current < 0 ? 'no_stream' : current);
  if (found > 0) throw new IdempotencyConflict(stream, row.first_found!);
  return undefined;
}

function matches(expected: ExpectedRevision, current: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === -1;
  if (expected === 'stream_exists') return current >= 0;
  return current === expected;
}

/** A stored batch is this retry's if it sits where the expectation would have put it. */
function storedWhereExpected(expected: ExpectedRevision, base: number): boolean {
  if (expected === 'no_stream') return base === -1;
  if (typeof expected === 'number') return base === expected;
  return true;
}

function translate(error: unknown): unknown {
  const e = error as { code?: string; message?: string };
  // jsonb cannot hold \u0000 in text
  if (e.code === '22P05') return new InvalidEventStoreInput('events', e.message ?? 'text PostgreSQL cannot store');
  return error;
}
