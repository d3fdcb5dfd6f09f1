// Write-time query expansion (seed 004): an entry that carries no
// anticipated queries gets the expander's, when one is configured. The
// expander's answer goes through the same entry schema as a client's; a
// failure, a timeout or an answer with no usable question leaves the entry
// as it was (the write goes on without them).
import { renderValue } from '../../domain/consolidation/rendering.js';
import { parseEntry, type MemoryEntry } from '../../domain/entry/entry.js';
import type { QueryExpander } from '../../infrastructure/expansion/port.js';

export type ExpansionOutcome = 'given' | 'off' | 'expanded' | 'none_usable' | 'failed';

export async function withAnticipatedQueries(
  expander: QueryExpander | undefined,
  entry: MemoryEntry,
): Promise<{ readonly entry: MemoryEntry; readonly expansion: ExpansionOutcome }> {
  if (entry.anticipatedQueries !== undefined) return { entry, expansion: 'given' };
  if (expander === undefined) return { entry, expansion: 'off' };
  const expansion = await expander
    .expand({
      kind: entry.kind,
      key: entry.key,
      value: renderValue(entry.value),
      polarity: entry.polarity,
      ...(entry.content !== undefined ? { content: entry.content } : {}),
    })
    .catch(() => undefined);
  if (!expansion?.ok) return { entry, expansion: 'failed' };
  if (expansion.queries.length === 0) return { entry, expansion: 'none_usable' };
  const expanded = parseEntry({ ...entry, anticipatedQueries: expansion.queries });
  return expanded.ok ? { entry: expanded.entry, expansion: 'expanded' } : { entry, expansion: 'none_usable' };
}
