// Write-time query expansion (seed 004): an entry that carries no
// anticipated queries gets the expander's, when one is configured. The
// expander's answer goes through the same entry schema as a client's; a
// failure, a timeout or an answer with no usable question leaves the entry
// as it was (the write goes on without them).
import { renderValue } from '../../domain/consolidation/rendering.js';
import { parseEntry, type MemoryEntry } from '../../domain/entry/entry.js';
import type { QueryExpander } from '../../infrastructure/expansion/port.js';

export async function withAnticipatedQueries(expander: QueryExpander | undefined, entry: MemoryEntry): Promise<MemoryEntry> {
  if (entry.anticipatedQueries !== undefined || expander === undefined) return entry;
  const expansion = await expander
    .expand({
      kind: entry.kind,
      key: entry.key,
      value: renderValue(entry.value),
      polarity: entry.polarity,
      ...(entry.content !== undefined ? { content: entry.content } : {}),
    })
    .catch(() => undefined);
  if (!expansion?.ok || expansion.queries.length === 0) return entry;
  const expanded = parseEntry({ ...entry, anticipatedQueries: expansion.queries });
  return expanded.ok ? expanded.entry : entry;
}
