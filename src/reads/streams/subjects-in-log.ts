// The subject streams of one tenant, or of every tenant, from the log (no
// projection needed): what the sweepers visit when asked for a whole tenant.
import { parseSubjectStreamName, SUBJECT_STREAM_PREFIX, tenantStreamPrefix } from '../../domain/events/stream-names.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted by tenant, then subject. */
export async function subjectsInLog(store: EventStore, tenant?: string): Promise<Array<{ tenant: string; subject: string }>> {
  const found = new Map<string, { tenant: string; subject: string }>();
  const prefix = tenant === undefined ? SUBJECT_STREAM_PREFIX : tenantStreamPrefix(tenant);
  let after;
  for (;;) {
    const page = await store.readAll({ ...(after ? { after } : {}), maxCount: 2000, filter: { streamPrefixes: [prefix] } });
    for (const event of page) {
      const ref = parseSubjectStreamName(event.stream);
      if (ref && (tenant === undefined || ref.tenant === tenant)) found.set(event.stream, ref);
    }
    if (page.length < 2000) break;
    after = page.at(-1)!.position;
  }
  return [...found.values()].sort((a, b) => byText(a.tenant, b.tenant) || byText(a.subject, b.subject));
}
