// Applying a page so that no event can wedge the projection: the page is
// applied inside a savepoint; if that fails in a way an event may have
// caused (faults.ts), it is rolled back, split in halves and each half is
// applied the same way, down to the single event that fails on its own —
// that one is a fault, passed over, and everything around it is applied.
// (An error that names its event, like one that does not decode, is taken at
// its word: that event is passed over and the rest applied again.)
// Each half starts from what the halves before it wrote, so the result is
// the same as applying the events one by one in log order: where page
// boundaries fall still changes nothing. A page without faults costs two
// statements more (savepoint, release).
import { sql, type Transaction } from 'kysely';
import type { StoredEvent } from '../../infrastructure/event-store/port.js';
import { UndecodableStoredEvent } from '../../domain/events/decode.js';
import { faultOf, mayBeEventFault, type ProjectionFault } from './faults.js';
import type { ProjectionDefinition } from './projection.js';
import type { NoTables } from './schema-handles.js';

/** Applies `events` in `trx`; returns the events that could not be applied (nothing of theirs is written). */
export async function applyIsolating(
  trx: Transaction<NoTables>,
  definition: ProjectionDefinition,
  schema: string,
  events: readonly StoredEvent[],
): Promise<ProjectionFault[]> {
  const faults: ProjectionFault[] = [];
  await applyPart(trx, definition, schema, events, faults, 0);
  return faults;
}

async function applyPart(
  trx: Transaction<NoTables>,
  definition: ProjectionDefinition,
  schema: string,
  events: readonly StoredEvent[],
  faults: ProjectionFault[],
  depth: number,
): Promise<void> {
  const savepoint = sql.raw(`apply_part_${depth}`);
  let part = events;
  while (part.length > 0) {
    await sql`savepoint ${savepoint}`.execute(trx);
    try {
      await definition.apply(trx, schema, part);
      await sql`release savepoint ${savepoint}`.execute(trx);
      return;
    } catch (error) {
      if (!mayBeEventFault(error)) throw error;
      await sql`rollback to savepoint ${savepoint}`.execute(trx);
      await sql`release savepoint ${savepoint}`.execute(trx);
      // An error that names its event (one that does not decode) needs no search: apply the others again.
      const named = namedEvent(error, part);
      if (named !== undefined || part.length === 1) {
        const faulted = named ?? part[0]!;
        faults.push(faultOf(faulted, error));
        part = part.filter((event) => event !== faulted);
        continue;
      }
      const half = Math.ceil(part.length / 2);
      await applyPart(trx, definition, schema, part.slice(0, half), faults, depth + 1);
      await applyPart(trx, definition, schema, part.slice(half), faults, depth + 1);
      return;
    }
  }
}

/** The event of `part` an error is about, when it says (an event that does not decode). */
function namedEvent(error: unknown, part: readonly StoredEvent[]): StoredEvent | undefined {
  return error instanceof UndecodableStoredEvent ? part.find((event) => event.id === error.eventId) : undefined;
}
