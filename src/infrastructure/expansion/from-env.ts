// The query expander from the environment: none (an entry keeps the
// questions its writer gave), or an OpenAI-compatible chat endpoint when
// MEMLEDGER_EXPANSION_URL is set.
//   MEMLEDGER_EXPANSION_URL         the API's base URL, ending in /v1
//   MEMLEDGER_EXPANSION_MODEL       required with a URL
//   MEMLEDGER_EXPANSION_API_KEY     optional bearer token
//   MEMLEDGER_EXPANSION_TIMEOUT_MS  default 5000: a write waits at most this long for its questions
import { endpointVariables, readEndpointConfig } from '../model-endpoint/endpoint-config.js';
import { chatCompletionsExpander } from './openai-compatible.js';
import type { QueryExpander } from './port.js';

export const EXPANSION_ENV = endpointVariables('EXPANSION');

export function expanderFromEnv(env: Readonly<Record<string, string | undefined>>): QueryExpander | undefined {
  const config = readEndpointConfig(EXPANSION_ENV, env, 5_000);
  return config === undefined ? undefined : chatCompletionsExpander(config);
}
