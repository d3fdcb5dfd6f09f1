// Whether a summary recall served should not have been: judged from the
// subject's log folded through the revision the answer reflects, not from the
// projection recall read.
import { artifactStaleness } from '../../domain/consolidation/staleness.js';
import { isSubjectEvent } from '../../domain/events/catalog.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { Manifest } from '../../domain/events/manifest.js';
import type { SubjectEvent } from '../../domain/events/subject-events.js';
import { fold } from '../../domain/subject/evolve.js';
import type { SubjectState } from '../../domain/subject/state.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';

const PAGE = 4096;

/** The subject's state after its events 0..revision, folded from the stream. */
export async function foldThrough(store: EventStore, stream: string, revision: number): Promise<{ state: SubjectState; revision: number }> {
  const events: SubjectEvent[] = [];
  for (let from = 0; from <= revision; from += PAGE) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: Math.min(PAGE, revision - from + 1) });
    for (const stored of page) {
      const event = decodeStoredEvent(stored);
      if (isSubjectEvent(event)) events.push(event);
    }
    if (page.length === 0) break;
  }
  return { state: fold(events), revision };
}

/** Why a served summary should not have been served, judged from the folded log alone. */
export function staleCause(state: SubjectState, sourceEpoch: number, manifest: Manifest | undefined): string | undefined {
  if (state.forgotten) return 'the subject was forgotten';
  if (!manifest) return 'its artifact has no manifest';
  if (sourceEpoch !== state.inputEpoch) return `built at inputEpoch ${sourceEpoch}, the log is at ${state.inputEpoch}`;
  const staleness = artifactStaleness(manifest, state);
  return staleness.stale ? `input ${staleness.memoryId} is ${staleness.cause.replace('_', ' ')}` : undefined;
}
