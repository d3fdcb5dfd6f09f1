// The embedder from the environment: none (retrieval is lexical only), or an
// OpenAI-compatible endpoint when MEMLEDGER_EMBEDDING_URL is set.
//   MEMLEDGER_EMBEDDING_URL          the API's base URL, ending in /v1 (Ollama: http://127.0.0.1:11434/v1)
//   MEMLEDGER_EMBEDDING_MODEL        required with a URL; recorded with every vector
//   MEMLEDGER_EMBEDDING_API_KEY      optional bearer token
//   MEMLEDGER_EMBEDDING_TIMEOUT_MS   default 10000
//   MEMLEDGER_EMBEDDING_DIMENSIONS   optional: the length every vector must have
import { z } from 'zod';
import { endpointVariables, parseVariable, readEndpointConfig, setValue } from '../model-endpoint/endpoint-config.js';
import { openAiCompatibleEmbedder } from './openai-compatible.js';
import type { Embedder } from './port.js';

export const EMBEDDING_ENV = { ...endpointVariables('EMBEDDING'), dimensions: 'MEMLEDGER_EMBEDDING_DIMENSIONS' } as const;

const dimensionsSchema = z.coerce.number().int().min(1).max(65_536);

export function embedderFromEnv(env: Readonly<Record<string, string | undefined>>): Embedder | undefined {
  const config = readEndpointConfig(EMBEDDING_ENV, env, 10_000);
  if (config === undefined) return undefined;
  const text = setValue(env[EMBEDDING_ENV.dimensions]);
  const dimensions =
    text === undefined
      ? undefined
      : parseVariable(dimensionsSchema, text, EMBEDDING_ENV.dimensions, 'must be a whole number from 1 to 65536');
  return openAiCompatibleEmbedder({ ...config, ...(dimensions !== undefined ? { dimensions } : {}) });
}
