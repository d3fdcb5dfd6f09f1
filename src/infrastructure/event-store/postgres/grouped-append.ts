// Appends to different streams made at the same moment go as one statement
// and one commit (statement-groups.ts): at 32 concurrent records each append
// was its own round trip and WAL flush. The statement is append.ts's, with a
// part per stream: each part checks its own expected revision against its
// own stream's last revision, so a part that fails inserts nothing and the
// others stand. A part that inserted nothing, and every part of a statement
// that failed (a unique violation from a race with another process, a
// retried batch whose ids are stored, text PostgreSQL cannot store: the
// statement wrote nothing), goes again alone through append.ts, which
// settles it with EventStoreDB's semantics. Large batches (imports) never
// wait in a group. All parts of a group commit together, so the log shows
// them in one transaction; each keeps its own stream's order and recordedAt.
// Appends with `any` to one stream may share a group (recalls of one subject
// at once each append a record to its recall stream): they go as one part,
// their events one after another in the order the appends were made.
import type pg from 'pg';
import type { AppendResult } from '../port.js';
import { ALONE, StatementGroups } from '../../postgres/statement-groups.js';
import { appendBatch } from './append.js';
import type { AppendInput } from './input.js';
import { WRITTEN_COLUMNS } from './log-order.js';
import { rowsById, writtenEvents, type WrittenRow } from './rows.js';

/** A batch this large goes alone: its insert is long enough to hold a group of small appends back. */
const ALONE_FROM_EVENTS = 64;
const MAX_PARTS = 64;
/** Group statements running at once, by default. */
export const GROUPS_IN_FLIGHT = 2;

const GROUP_APPEND_SQL = `
  with part as (
    select p.stream, p.expected, p.revision as expected_revision, $4::jsonb -> (p.part::int - 1) as events, p.part, head.revision, head.recorded_at
      from unnest($1::text[], $2::text[], $3::int8[]) with ordinality as p(stream, expected, revision, part),
           lateral (select coalesce(max(e.stream_revision), -1) as revision,
                           (select r.recorded_at from events r where r.stream_name = p.stream order by r.stream_revision desc limit 1) as recorded_at
                      from events e where e.stream_name = p.stream) as head
     where case p.expected when 'any' then true
                           when 'no_stream' then head.revision = -1
                           when 'stream_exists' then head.revision >= 0
                           else head.revision = p.revision end
  ),
  inserted as (
    insert into events (stream_name, stream_revision, event_id, type, data, metadata, recorded_at)
    select part.stream, part.revision + batch.ord, (batch.value->>'id')::uuid, batch.value->>'type', batch.value->'data', batch.value->'metadata',
           -- once per statement, never before each stream's previous one
           greatest((select date_trunc('milliseconds', clock_timestamp())), part.recorded_at)
      from part, jsonb_array_elements(part.events) with ordinality as batch(value, ord)
     order by part.part, batch.ord
    returning ${WRITTEN_COLUMNS}
  )
  select * from inserted order by stream_revision`;

export class GroupedAppends {
  readonly #groups: StatementGroups<AppendInput, AppendResult>;

  constructor(
    private readonly pool: pg.Pool,
    /**
     * Where the group statement runs: a plannedOncePool. Left to choose, PostgreSQL planned a custom plan for it on every
     * call (0.25-0.64 ms, as long as running it); its plan does not depend on the values. A part that goes alone runs on `pool`.
     */
    private readonly groupPool: pg.Pool = pool,
    /** Groups running at once (each holds a connection): more spreads the load, fewer makes larger groups. */
    maxInFlight = GROUPS_IN_FLIGHT,
  ) {
    this.#groups = new StatementGroups({
      runAlone: (input) => appendBatch(this.pool, input),
      runGroup: (inputs) => this.#together(inputs),
      keyOf: (input) => input.stream,
      sharesKey: (input) => input.expectedRevision === 'any',
      maxItems: MAX_PARTS,
      maxInFlight,
    });
  }

  async append(input: AppendInput): Promise<AppendResult> {
    return input.events.length >= ALONE_FROM_EVENTS ? appendBatch(this.pool, input) : this.#groups.run(input);
  }

  async #together(inputs: readonly AppendInput[]): Promise<(AppendResult | typeof ALONE)[]> {
    let rows: WrittenRow[];
    try {
      rows = (
        await this.groupPool.query<WrittenRow>({
          name: 'event_store_append_group',
          text: GROUP_APPEND_SQL,
          values: groupValues(partsOf(inputs)),
        })
      ).rows;
    } catch {
      // The statement wrote nothing: each append settles alone (and reports its own error).
      return inputs.map(() => ALONE);
    }
    const byId = rowsById(rows);
    return inputs.map((input) => {
      const written = writtenEvents(byId, input.events);
      const last = written?.at(-1);
      return written && last ? { nextExpectedRevision: last.streamRevision, position: last.position, written } : ALONE;
    });
  }
}

/** One part per stream: the group's appends to one stream (all with `any`, see sharesKey) go as one, in order. */
function partsOf(inputs: readonly AppendInput[]): AppendInput[] {
  const parts = new Map<string, AppendInput>();
  for (const input of inputs) {
    const part = parts.get(input.stream);
    parts.set(input.stream, part ? { ...part, events: [...part.events, ...input.events] } : input);
  }
  return [...parts.values()];
}

function groupValues(parts: readonly AppendInput[]): unknown[] {
  return [
    parts.map((part) => part.stream),
    parts.map(({ expectedRevision }) => (typeof expectedRevision === 'number' ? 'exact' : expectedRevision)),
    parts.map(({ expectedRevision }) => (typeof expectedRevision === 'number' ? expectedRevision : null)),
    // One JSON array of the parts' event arrays, not a jsonb[]: pg writes an array parameter as a literal, escaping every
    // quote of every event's JSON again (a recall's record is tens of KB), and a string goes as it is.
    JSON.stringify(parts.map(({ events }) => events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })))),
  ];
}
