// The query-expansion port (seed 004, write-time document expansion): an
// entry in, the questions under which it should be found out. Unset (no
// endpoint configured), there is no expander and an entry keeps the
// questions its writer gave, or none. Whatever an endpoint gets wrong ends
// as a typed ExpansionFailure, and the entry is written without questions.
import type { MemoryKind, Polarity } from '../../domain/entry/vocabulary.js';
import { ModelFailure, type EndpointFailureCode } from '../model-endpoint/post-json.js';

export interface ExpansionRequest {
  readonly kind: MemoryKind;
  readonly key: string;
  /** The value as text (renderValue). */
  readonly value: string;
  readonly polarity: Polarity;
  readonly content?: string;
}

/** Why no questions came back. */
export class ExpansionFailure extends ModelFailure<EndpointFailureCode> {
  override readonly name = 'ExpansionFailure';
}

export interface Expanded {
  readonly ok: true;
  /** At most MAX_ANTICIPATED_QUERIES, each within MAX_ANTICIPATED_QUERY_CHARS; possibly none. */
  readonly queries: readonly string[];
  /** Questions the answer gave beyond the limit (cut), and questions too long or empty (dropped). */
  readonly cut: number;
  readonly dropped: number;
}

export type Expansion = Expanded | { readonly ok: false; readonly failure: ExpansionFailure };

export interface QueryExpander {
  readonly model: string;
  readonly promptVersion: string;
  expand(request: ExpansionRequest): Promise<Expansion>;
}
