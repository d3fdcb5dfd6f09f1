// The OpenAI-compatible query expander against a local HTTP server this
// test starts: good questions come back trimmed; beyond 8 the rest are cut
// (the model's first are kept); a question over 256 characters, an empty
// or a repeated one is dropped (not truncated: a question cut short may
// ask something else); a slow answer, an HTTP error, malformed JSON or an
// answer of another shape is a typed ExpansionFailure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expanderFromEnv } from '../../src/infrastructure/expansion/from-env.js';
import type { QueryExpander } from '../../src/infrastructure/expansion/port.js';
import { startModelServer, type Fault, type ModelServer } from '../support/model-server.js';

let model: ModelServer;
let expander: QueryExpander;
const request = {
  kind: 'constraint',
  key: 'contact.phone_calls',
  value: 'true',
  polarity: 'negated',
  content: '用户不接受电话回访',
} as const;

beforeAll(async () => {
  model = await startModelServer();
  expander = expanderFromEnv({
    MEMLEDGER_EXPANSION_URL: model.baseUrl,
    MEMLEDGER_EXPANSION_MODEL: 'qwen2.5:3b',
    MEMLEDGER_EXPANSION_TIMEOUT_MS: '500',
  })!;
});
afterAll(async () => model?.close());

describe('the chat-completions query expander', () => {
  it('sends the entry and reads back its questions', async () => {
    model.fault = 'none';
    model.chat = () => '```json\n{"queries":["  这位客户能打电话吗？ ","Can we call this customer?"]}\n```';
    expect(await expander.expand(request)).toEqual({
      ok: true,
      queries: ['这位客户能打电话吗？', 'Can we call this customer?'],
      cut: 0,
      dropped: 0,
    });
    const sent = model.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: 'qwen2.5:3b', temperature: 0 });
    expect(JSON.parse(sent.body.messages?.[1]?.content ?? 'null')).toEqual(request);
    expect(expander).toMatchObject({ model: 'qwen2.5:3b', promptVersion: 'expand-v1' });
  });

  it('cuts beyond 8 questions and drops too long, empty and repeated ones', async () => {
    model.fault = 'none';
    const many = Array.from({ length: 11 }, (_x, i) => `question ${i}?`);
    model.chat = () => JSON.stringify({ queries: ['x'.repeat(257), '', 'question 0?', ...many, '长'.repeat(256)] });
    const answer = await expander.expand(request);
    expect(answer).toEqual({ ok: true, queries: many.slice(0, 8), cut: 4, dropped: 2 + 1 });
  });

  const faults: Array<[Fault | 'not_queries' | 'not_strings', string, RegExp]> = [
    ['slow', 'timeout', /within 500 ms/],
    ['http_500', 'http_error', /HTTP 500/],
    ['not_json', 'malformed_json', /other than JSON/],
    ['wrong_shape', 'invalid_output', /not a chat completion/],
    ['not_queries', 'malformed_json', /not valid JSON/],
    ['not_strings', 'invalid_output', /not \{"queries"/],
  ];
  for (const [fault, code, message] of faults) {
    it(`${fault}: an ExpansionFailure (${code})`, async () => {
      model.fault = fault === 'not_queries' || fault === 'not_strings' ? 'none' : fault;
      model.chat = () => (fault === 'not_queries' ? 'Here are some questions: 1. Can we call?' : '{"queries":[1,2]}');
      const answer = await expander.expand(request);
      if (answer.ok) throw new Error(`expected a failure, got ${JSON.stringify(answer)}`);
      expect(answer.failure.code).toBe(code);
      expect(answer.failure.message).toMatch(message);
    });
  }

  it('unset is no expander; a bad variable is a ConfigError naming it', () => {
    expect(expanderFromEnv({})).toBeUndefined();
    expect(() => expanderFromEnv({ MEMLEDGER_EXPANSION_URL: model.baseUrl })).toThrow(/^MEMLEDGER_EXPANSION_MODEL: /);
    expect(() =>
      expanderFromEnv({ MEMLEDGER_EXPANSION_URL: model.baseUrl, MEMLEDGER_EXPANSION_MODEL: 'm', MEMLEDGER_EXPANSION_TIMEOUT_MS: '0' }),
    ).toThrow(/^MEMLEDGER_EXPANSION_TIMEOUT_MS: /);
  });
});
