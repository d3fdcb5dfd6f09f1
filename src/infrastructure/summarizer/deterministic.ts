// The default summarizer: the pure template of the domain behind the port.
import { DETERMINISTIC_MODEL, DETERMINISTIC_PROMPT, summarizeDeterministically } from '../../domain/consolidation/deterministic-summary.js';
import type { Summarizer } from './port.js';

export function deterministicSummarizer(): Summarizer {
  return {
    modelSnapshot: DETERMINISTIC_MODEL,
    promptVersion: DETERMINISTIC_PROMPT,
    summarize(request) {
      const output = summarizeDeterministically({
        inputs: request.inputs,
        conflicts: request.conflicts,
        ...(request.parent ? { parent: request.parent } : {}),
      });
      return Promise.resolve({ ok: true, output });
    },
  };
}
