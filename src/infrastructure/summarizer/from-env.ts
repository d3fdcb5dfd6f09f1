// The summarizer from the environment: the deterministic default, or an
// OpenAI-compatible endpoint when MEMLEDGER_SUMMARIZER_URL is set.
//   MEMLEDGER_SUMMARIZER_URL         the API's base URL, ending in /v1
//   MEMLEDGER_SUMMARIZER_MODEL       required with a URL
//   MEMLEDGER_SUMMARIZER_API_KEY     optional bearer token
//   MEMLEDGER_SUMMARIZER_TIMEOUT_MS  default 60000
import { z } from 'zod';
import { ConfigError } from '../config.js';
import { deterministicSummarizer } from './deterministic.js';
import { chatCompletionsSummarizer } from './openai-compatible.js';
import type { Summarizer } from './port.js';

export const SUMMARIZER_ENV = {
  url: 'MEMLEDGER_SUMMARIZER_URL',
  model: 'MEMLEDGER_SUMMARIZER_MODEL',
  apiKey: 'MEMLEDGER_SUMMARIZER_API_KEY',
  timeoutMs: 'MEMLEDGER_SUMMARIZER_TIMEOUT_MS',
} as const;

const set = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

export function summarizerFromEnv(env: Readonly<Record<string, string | undefined>>): Summarizer {
  const url = set(env[SUMMARIZER_ENV.url]);
  if (url === undefined) return deterministicSummarizer();
  const parsedUrl = z.url({ protocol: /^https?$/ }).safeParse(url);
  if (!parsedUrl.success || !/\/v1\/?$/.test(url))
    throw new ConfigError(SUMMARIZER_ENV.url, 'must be an http(s) base URL ending in /v1, e.g. http://127.0.0.1:8080/v1');
  const model = set(env[SUMMARIZER_ENV.model]);
  if (model === undefined) throw new ConfigError(SUMMARIZER_ENV.model, 'is required when MEMLEDGER_SUMMARIZER_URL is set');
  if (model.length > 200) throw new ConfigError(SUMMARIZER_ENV.model, 'must be at most 200 characters');
  const timeoutText = set(env[SUMMARIZER_ENV.timeoutMs]) ?? '60000';
  const timeoutMs = Number(timeoutText);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 3_600_000)
    throw new ConfigError(SUMMARIZER_ENV.timeoutMs, 'must be a whole number of milliseconds from 1 to 3600000');
  const apiKey = set(env[SUMMARIZER_ENV.apiKey]);
  return chatCompletionsSummarizer({ baseUrl: url, model, timeoutMs, ...(apiKey ? { apiKey } : {}) });
}
