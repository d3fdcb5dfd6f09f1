// One POST to an OpenAI-compatible endpoint, under a timeout that also
// covers reading the body (a slow stream is a slow answer). Whatever goes
// wrong on the wire ends as a typed EndpointFailure; the caller validates
// what the JSON says.
import type { EndpointConfig } from './endpoint-config.js';

export const ENDPOINT_FAILURE_CODES = ['timeout', 'unreachable', 'http_error', 'refused', 'malformed_json', 'invalid_output'] as const;
export type EndpointFailureCode = (typeof ENDPOINT_FAILURE_CODES)[number];

/** Why a model port has no answer. The message names statuses and limits, never content: callers may store it in clear. */
export class ModelFailure<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

export class EndpointFailure extends ModelFailure<EndpointFailureCode> {
  override readonly name = 'EndpointFailure';
}

/** The parsed JSON answer of `POST {baseUrl}{path}`; throws EndpointFailure. */
export async function postJson(config: EndpointConfig, path: string, body: unknown, what: string): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await fetch(`${config.baseUrl}${path}`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (controller.signal.aborted) throw new EndpointFailure('timeout', `no complete answer within ${config.timeoutMs} ms`);
    throw new EndpointFailure('unreachable', `the ${what} endpoint could not be reached: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status > 299)
    throw new EndpointFailure(status === 400 || status === 422 ? 'refused' : 'http_error', `the endpoint answered HTTP ${status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EndpointFailure('malformed_json', 'the endpoint answered with something other than JSON');
  }
}
