// The one text a memory's vector is computed from, at write time and on a
// re-index alike (so both give the same vector): the statement as the
// summarizer reads it ("key: NOT value"), the content, and the anticipated
// queries (seed 004: a question the entry should answer then sits near the
// question asked).
import { renderValue } from '../../consolidation/rendering.js';
import type { Polarity } from '../../entry/vocabulary.js';
import type { Value } from '../../values/value.js';

export interface EmbeddedFields {
  readonly key: string;
  readonly value: Value;
  readonly polarity: Polarity;
  readonly content?: string;
  readonly anticipatedQueries?: readonly string[];
}

export function embeddingText(fields: EmbeddedFields): string {
  const statement = `${fields.key}: ${fields.polarity === 'negated' ? 'NOT ' : ''}${renderValue(fields.value)}`;
  return [statement, fields.content, ...(fields.anticipatedQueries ?? [])].filter((t) => t !== undefined && t !== '').join('\n');
}
