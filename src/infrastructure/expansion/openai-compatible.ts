// An OpenAI-compatible chat-completions endpoint as the query expander.
// The answer must be {"queries": [string, …]} (zod); anything else is an
// ExpansionFailure. Within a valid answer, questions are trimmed, empty or
// repeated ones dropped, ones longer than MAX_ANTICIPATED_QUERY_CHARS
// dropped (a question cut short may ask something else), and beyond
// MAX_ANTICIPATED_QUERIES the rest are cut (the model's first are kept).
import { z } from 'zod';
import { MAX_ANTICIPATED_QUERIES, MAX_ANTICIPATED_QUERY_CHARS } from '../../domain/entry/entry.js';
import { chatJson } from '../model-endpoint/chat-json.js';
import type { EndpointConfig } from '../model-endpoint/endpoint-config.js';
import { EndpointFailure } from '../model-endpoint/post-json.js';
import { ExpansionFailure, type Expansion, type ExpansionRequest, type QueryExpander } from './port.js';

export const EXPANSION_PROMPT_VERSION = 'expand-v1';

const SYSTEM_PROMPT = `You help an AI agent's long-term memory find an entry later.
Given one memory entry, write the questions a future conversation might ask that this entry answers,
in the words a user or an agent would use (not the entry's own words), in the entry's language.
Answer with ONE JSON object and nothing else: {"queries":[string]} with at most ${MAX_ANTICIPATED_QUERIES} questions,
each at most ${MAX_ANTICIPATED_QUERY_CHARS} characters. Never add facts the entry does not state.`;

const answerSchema = z.object({ queries: z.array(z.string()) });

export function chatCompletionsExpander(config: EndpointConfig): QueryExpander {
  return {
    model: config.model,
    promptVersion: EXPANSION_PROMPT_VERSION,
    expand: (request) => expand(config, request),
  };
}

async function expand(config: EndpointConfig, request: ExpansionRequest): Promise<Expansion> {
  let json: unknown;
  try {
    json = await chatJson(config, { system: SYSTEM_PROMPT, user: JSON.stringify(request) }, 'expansion');
  } catch (error) {
    if (error instanceof EndpointFailure) return { ok: false, failure: new ExpansionFailure(error.code, error.message) };
    throw error;
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: new ExpansionFailure('invalid_output', 'the answer is not {"queries": [string, …]}') };
  return withinLimits(parsed.data.queries);
}

export function withinLimits(answered: readonly string[]): Expansion {
  const kept: string[] = [];
  let dropped = 0;
  for (const raw of answered) {
    const query = raw.trim();
    if (query === '' || [...query].length > MAX_ANTICIPATED_QUERY_CHARS || kept.includes(query)) dropped += 1;
    else kept.push(query);
  }
  const queries = kept.slice(0, MAX_ANTICIPATED_QUERIES);
  return { ok: true, queries, cut: kept.length - queries.length, dropped };
}
