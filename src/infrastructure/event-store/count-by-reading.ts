// countAll for a store that has no count (EventStoreDB): the events are read
// in pages and counted, stopping at the limit or past `upTo`.
import { comparePositions, type CountAllOptions, type EventStore } from './port.js';

const PAGE = 1000;

export async function countByReading(readAll: EventStore['readAll'], options: CountAllOptions): Promise<number> {
  const { upTo, filter, limit } = options;
  let count = 0;
  let after = options.after;
  while (count < limit) {
    const maxCount = Math.min(PAGE, limit - count);
    const page = await readAll({ ...(after ? { after } : {}), maxCount, ...(filter ? { filter } : {}) });
    const within = upTo ? page.filter((event) => comparePositions(event.position, upTo) <= 0) : page;
    count += within.length;
    if (within.length < page.length || page.length < maxCount) break;
    after = page.at(-1)!.position;
  }
  return count;
}
