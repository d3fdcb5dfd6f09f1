// A chat completion whose message is one JSON object (the summarizer's
// output, the expansion's questions): posted with temperature 0 and JSON
// mode, the completion validated (zod), a ```json fence taken off (models
// often add one), the content parsed. The caller validates the object.
import { z } from 'zod';
import type { EndpointConfig } from './endpoint-config.js';
import { EndpointFailure, postJson } from './post-json.js';

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export interface ChatMessages {
  readonly system: string;
  readonly user: string;
}

export async function chatJson(config: EndpointConfig, messages: ChatMessages, what: string): Promise<unknown> {
  const body = await postJson(
    config,
    '/chat/completions',
    {
      model: config.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: messages.system },
        { role: 'user', content: messages.user },
      ],
    },
    what,
  );
  const completion = completionSchema.safeParse(body);
  if (!completion.success)
    throw new EndpointFailure('invalid_output', 'the answer is not a chat completion (choices[0].message.content is missing)');
  const content = completion.data.choices[0]!.message.content;
  if (content === null) throw new EndpointFailure('invalid_output', 'the answer has no message content');
  try {
    return JSON.parse(stripFence(content)) as unknown;
  } catch {
    throw new EndpointFailure('malformed_json', 'the message content is not valid JSON');
  }
}

function stripFence(content: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  return match ? match[1]! : content;
}
