// An OpenAI-compatible chat-completions endpoint as a summarizer. The answer
// is parsed and validated (zod) into the output JSON; a slow answer, an HTTP
// error, malformed JSON or missing fields become a typed GenerationFailure.
import { z } from 'zod';
import { parseSummarizerOutput } from '../../domain/consolidation/output.js';
import { GenerationFailure, type Generation, type Summarizer, type SummarizerRequest } from './port.js';
import { PROMPT_VERSION, SYSTEM_PROMPT, userMessage } from './prompt.js';

export interface ChatSummarizerOptions {
  /** The API's base URL, ending in /v1. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export function chatCompletionsSummarizer(options: ChatSummarizerOptions): Summarizer {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    modelSnapshot: options.model,
    promptVersion: PROMPT_VERSION,
    summarize: (request) => generate(endpoint, options, request),
  };
}

async function generate(endpoint: string, options: ChatSummarizerOptions, request: SummarizerRequest): Promise<Generation> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const body = await call(endpoint, options, request, controller.signal);
    return { ok: true, output: parseAnswer(body) };
  } catch (error) {
    if (error instanceof GenerationFailure) return { ok: false, failure: error };
    if (controller.signal.aborted)
      return { ok: false, failure: new GenerationFailure('timeout', `no complete answer within ${options.timeoutMs} ms`) };
    return {
      ok: false,
      failure: new GenerationFailure('unreachable', `the summarizer endpoint could not be reached: ${(error as Error).message}`),
    };
  } finally {
    clearTimeout(timer);
  }
}

async function call(endpoint: string, options: ChatSummarizerOptions, request: SummarizerRequest, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(endpoint, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
    body: JSON.stringify({
      model: options.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: userMessage(request) },
      ],
    }),
  });
  // The body is read under the same timeout: a slow stream is a slow answer.
  const text = await response.text();
  if (!response.ok)
    throw new GenerationFailure(
      response.status === 400 || response.status === 422 ? 'refused' : 'http_error',
      `the endpoint answered HTTP ${response.status}`,
    );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GenerationFailure('malformed_json', 'the endpoint answered with something other than JSON');
  }
}

function parseAnswer(body: unknown) {
  const completion = completionSchema.safeParse(body);
  if (!completion.success)
    throw new GenerationFailure('invalid_output', 'the answer is not a chat completion (choices[0].message.content is missing)');
  const content = completion.data.choices[0]!.message.content;
  if (content === null) throw new GenerationFailure('invalid_output', 'the answer has no message content');
  let json: unknown;
  try {
    json = JSON.parse(stripFence(content));
  } catch {
    throw new GenerationFailure('malformed_json', 'the message content is not valid JSON');
  }
  const parsed = parseSummarizerOutput(json);
  if (!parsed.ok) throw new GenerationFailure('invalid_output', `${parsed.error.field}: ${parsed.error.reason}`);
  return parsed.output;
}

/** Models often wrap JSON in a ```json fence. */
function stripFence(content: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  return match ? match[1]! : content;
}
