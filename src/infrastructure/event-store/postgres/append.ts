// One append = one call of event_store_append (migration 0001): the stream
// lock, the idempotency and expected-revision checks and the insert happen in
// a single round trip and a single transaction.
import type pg from 'pg';
import { IdempotencyConflict, WrongExpectedVersion, type AppendResult } from '../port.js';
import { InvalidEventStoreInput, type AppendInput } from './input.js';
import { toPosition } from './rows.js';

const APPEND = { name: 'event_store_append', text: 'select * from event_store_append($1, $2, $3, $4)' };

interface AppendRow {
  next_revision: string;
  commit_position: string;
  prepare_position: string;
}

export async function appendBatch(pool: pg.Pool, { stream, events, expectedRevision }: AppendInput): Promise<AppendResult> {
  const exact = typeof expectedRevision === 'number';
  const batch = JSON.stringify(events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })));
  try {
    const { rows } = await pool.query<AppendRow>({
      ...APPEND,
      values: [stream, exact ? 'exact' : expectedRevision, exact ? expectedRevision : null, batch],
    });
    const row = rows[0]!;
    return { nextExpectedRevision: Number(row.next_revision), position: toPosition(row.commit_position, row.prepare_position) };
  } catch (error) {
    throw translate(error, stream, expectedRevision);
  }
}

function translate(error: unknown, stream: string, expected: AppendInput['expectedRevision']): unknown {
  const e = error as { code?: string; detail?: string; constraint?: string; message?: string };
  switch (e.code) {
    case 'ML001': {
      const actual = Number(e.detail);
      return new WrongExpectedVersion(stream, expected, actual < 0 ? 'no_stream' : actual);
    }
    case 'ML002':
      return new IdempotencyConflict(stream, e.detail ?? '');
    case '23505':
      // The same id committed meanwhile by an append to another stream.
      if (e.constraint === 'events_event_id') {
        return new IdempotencyConflict(stream, /\(event_id\)=\(([^)]+)\)/.exec(e.detail ?? '')?.[1] ?? '');
      }
      return error;
    case '22P05': // jsonb cannot hold \u0000
      return new InvalidEventStoreInput('events', e.message ?? 'text PostgreSQL cannot store');
    default:
      return error;
  }
}
