// Which active entries of the new entry's slot it refines (REFINEMENT,
// src/domain/subject/refinement.ts). Values are sealed at rest, so the old
// ones are opened here, in memory only, at write time; only entries that
// could be refined (same value type, one that can be refined, same polarity)
// are opened, and a write into a slot holding none reads nothing more; each
// from its own MemoryRecorded, where the fold keeps it (LoadedStream.places).
// The list goes into the command; the decider trusts it only for entries it
// supersedes anyway.
import type { MemoryEntry } from '../../domain/entry/entry.js';
import { slotOf } from '../../domain/entry/scopes.js';
import { REFINABLE_VALUE_TYPES, refines } from '../../domain/subject/refinement.js';
import { activeEntriesInSlot } from '../../domain/subject/state.js';
import { openEntries } from '../../reads/opened/opened-entries.js';
import type { CommandContext, Ledger } from '../ledger.js';
import type { LoadedSubject } from './loaded-subject.js';

/** `loaded`: the subject as the write loaded it (the command decides against the same fold). */
export async function refinedEntries(
  ledger: Pick<Ledger, 'eventStore' | 'keyStore'>,
  context: Pick<CommandContext, 'tenant' | 'subject'>,
  loaded: LoadedSubject,
  entry: MemoryEntry,
): Promise<string[]> {
  if (!REFINABLE_VALUE_TYPES.has(entry.value.type)) return [];
  const comparable = activeEntriesInSlot(loaded.state, slotOf(entry.key, entry.scopes)).filter(
    (e) => e.valueType === entry.value.type && e.polarity === entry.polarity,
  );
  if (comparable.length === 0) return [];
  const ref = { tenant: context.tenant, subject: context.subject };
  const open = await openEntries(
    ledger.eventStore,
    ledger.keyStore,
    ref,
    loaded.stream,
    loaded.revision,
    new Set(comparable.map((e) => e.memoryId)),
    loaded,
  );
  return comparable.flatMap((e) => {
    const opened = open(e);
    return opened !== undefined && refines(opened.value, entry.value) ? [e.memoryId] : [];
  });
}
