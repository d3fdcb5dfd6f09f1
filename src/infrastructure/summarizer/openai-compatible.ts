// An OpenAI-compatible chat-completions endpoint as a summarizer. The answer
// is parsed and validated (zod) into the output JSON; a slow answer, an HTTP
// error, malformed JSON or missing fields become a typed GenerationFailure.
import { parseSummarizerOutput } from '../../domain/consolidation/output.js';
import { chatJson } from '../model-endpoint/chat-json.js';
import type { EndpointConfig } from '../model-endpoint/endpoint-config.js';
import { EndpointFailure } from '../model-endpoint/post-json.js';
import { GenerationFailure, type Generation, type Summarizer, type SummarizerRequest } from './port.js';
import { PROMPT_VERSION, SYSTEM_PROMPT, userMessage } from './prompt.js';

export function chatCompletionsSummarizer(config: EndpointConfig): Summarizer {
  return {
    modelSnapshot: config.model,
    promptVersion: PROMPT_VERSION,
    summarize: (request) => generate(config, request),
  };
}

async function generate(config: EndpointConfig, request: SummarizerRequest): Promise<Generation> {
  try {
    const json = await chatJson(config, { system: SYSTEM_PROMPT, user: userMessage(request) }, 'summarizer');
    const parsed = parseSummarizerOutput(json);
    if (!parsed.ok) return { ok: false, failure: new GenerationFailure('invalid_output', `${parsed.error.field}: ${parsed.error.reason}`) };
    return { ok: true, output: parsed.output };
  } catch (error) {
    if (error instanceof EndpointFailure) return { ok: false, failure: new GenerationFailure(error.code, error.message) };
    throw error;
  }
}
