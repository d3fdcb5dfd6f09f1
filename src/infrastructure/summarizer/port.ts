// The summarizer port: turns a snapshot's hot inputs into the output JSON of
// DESIGN section 4. Adapters: the deterministic default and an
// OpenAI-compatible chat-completions endpoint. Whatever an adapter gets
// wrong ends as a typed GenerationFailure or, after the gate, GateFailed —
// never as a published artifact.
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { GenerationRequest } from '../../domain/consolidation/snapshot.js';
import { ModelFailure } from '../model-endpoint/post-json.js';

export interface SummarizerRequest extends GenerationRequest {
  readonly tenant: string;
  readonly subject: string;
}

export const GENERATION_FAILURE_CODES = ['timeout', 'unreachable', 'http_error', 'malformed_json', 'invalid_output', 'refused'] as const;
export type GenerationFailureCode = (typeof GENERATION_FAILURE_CODES)[number];

/** Why no output came back. The message is stored in clear: it names fields and statuses, never content. */
export class GenerationFailure extends ModelFailure<GenerationFailureCode> {
  override readonly name = 'GenerationFailure';
}

export type Generation =
  { readonly ok: true; readonly output: SummarizerOutput } | { readonly ok: false; readonly failure: GenerationFailure };

export interface Summarizer {
  /** Recorded in the manifest. */
  readonly modelSnapshot: string;
  readonly promptVersion: string;
  summarize(request: SummarizerRequest): Promise<Generation>;
}
