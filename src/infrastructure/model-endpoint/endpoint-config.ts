// An OpenAI-compatible model endpoint from the environment, one shape for
// every model port (summarizer, embeddings, query expansion):
//   MEMLEDGER_<PORT>_URL         the API's base URL, ending in /v1 (unset: the port's default)
//   MEMLEDGER_<PORT>_MODEL       required with a URL
//   MEMLEDGER_<PORT>_API_KEY     optional bearer token
//   MEMLEDGER_<PORT>_TIMEOUT_MS  optional, 1..3600000
// An empty variable counts as unset. A bad value is a ConfigError naming it.
import { z } from 'zod';
import { ConfigError } from '../config.js';

export interface EndpointVariables {
  readonly url: string;
  readonly model: string;
  readonly apiKey: string;
  readonly timeoutMs: string;
}

export interface EndpointConfig {
  /** The API's base URL, ending in /v1. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

export const endpointVariables = (port: string): EndpointVariables => ({
  url: `MEMLEDGER_${port}_URL`,
  model: `MEMLEDGER_${port}_MODEL`,
  apiKey: `MEMLEDGER_${port}_API_KEY`,
  timeoutMs: `MEMLEDGER_${port}_TIMEOUT_MS`,
});

export const setValue = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

const baseUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine((url) => /\/v1\/?$/.test(url), { error: 'must end in /v1' })
  .transform((url) => url.replace(/\/+$/, ''));
const modelSchema = z.string().max(200, { error: 'must be at most 200 characters' });
const timeoutSchema = z.coerce.number().int().min(1).max(3_600_000);

/** Parses `text` with `schema`, or throws a ConfigError naming `variable`. */
export function parseVariable<T>(schema: z.ZodType<T>, text: string, variable: string, message: string): T {
  const parsed = schema.safeParse(text);
  if (!parsed.success) throw new ConfigError(variable, message);
  return parsed.data;
}

/** The endpoint, or undefined when its URL is unset. */
export function readEndpointConfig(
  vars: EndpointVariables,
  env: Readonly<Record<string, string | undefined>>,
  defaultTimeoutMs: number,
): EndpointConfig | undefined {
  const url = setValue(env[vars.url]);
  if (url === undefined) return undefined;
  const baseUrl = parseVariable(baseUrlSchema, url, vars.url, 'must be an http(s) base URL ending in /v1, e.g. http://127.0.0.1:8080/v1');
  const model = setValue(env[vars.model]);
  if (model === undefined) throw new ConfigError(vars.model, `is required when ${vars.url} is set`);
  parseVariable(modelSchema, model, vars.model, 'must be at most 200 characters');
  const timeoutText = setValue(env[vars.timeoutMs]);
  const timeoutMs =
    timeoutText === undefined
      ? defaultTimeoutMs
      : parseVariable(timeoutSchema, timeoutText, vars.timeoutMs, 'must be a whole number of milliseconds from 1 to 3600000');
  const apiKey = setValue(env[vars.apiKey]);
  return { baseUrl, model, timeoutMs, ...(apiKey ? { apiKey } : {}) };
}
