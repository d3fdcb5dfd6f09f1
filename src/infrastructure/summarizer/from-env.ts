// The summarizer from the environment: the deterministic default, or an
// OpenAI-compatible endpoint when MEMLEDGER_SUMMARIZER_URL is set.
//   MEMLEDGER_SUMMARIZER_URL         the API's base URL, ending in /v1
//   MEMLEDGER_SUMMARIZER_MODEL       required with a URL
//   MEMLEDGER_SUMMARIZER_API_KEY     optional bearer token
//   MEMLEDGER_SUMMARIZER_TIMEOUT_MS  default 60000
import { endpointVariables, readEndpointConfig } from '../model-endpoint/endpoint-config.js';
import { deterministicSummarizer } from './deterministic.js';
import { chatCompletionsSummarizer } from './openai-compatible.js';
import type { Summarizer } from './port.js';

export const SUMMARIZER_ENV = endpointVariables('SUMMARIZER');

export function summarizerFromEnv(env: Readonly<Record<string, string | undefined>>): Summarizer {
  const config = readEndpointConfig(SUMMARIZER_ENV, env, 60_000);
  return config === undefined ? deterministicSummarizer() : chatCompletionsSummarizer(config);
}
