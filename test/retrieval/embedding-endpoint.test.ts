// The OpenAI-compatible embedder against a local HTTP server this test
// starts: a good answer gives one vector per text in input order; a slow
// answer, an unreachable or failing endpoint, a malformed answer, the wrong
// number of vectors and the wrong dimensions each end as a typed
// EmbeddingFailure, never as vectors. Its configuration is validated,
// naming the variable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/infrastructure/config.js';
import { embedderFromEnv } from '../../src/infrastructure/embeddings/from-env.js';
import type { Embedder } from '../../src/infrastructure/embeddings/port.js';
import { bagOfWords, DIMENSIONS, startModelServer, type Fault, type ModelServer } from '../support/model-server.js';

let model: ModelServer;
let embedder: Embedder;

beforeAll(async () => {
  model = await startModelServer();
  embedder = embedderFromEnv({
    MEMLEDGER_EMBEDDING_URL: model.baseUrl,
    MEMLEDGER_EMBEDDING_MODEL: 'nomic-embed-text',
    MEMLEDGER_EMBEDDING_API_KEY: 'sk-local',
    MEMLEDGER_EMBEDDING_TIMEOUT_MS: '500',
  })!;
});
afterAll(async () => model?.close());

describe('the OpenAI-compatible embedder', () => {
  it('answers one vector per text, in input order, and names its model', async () => {
    model.fault = 'none';
    const answer = await embedder.embed(['the customer refuses phone calls', 'ships to Hangzhou']);
    expect(answer).toEqual({ ok: true, vectors: [bagOfWords('the customer refuses phone calls'), bagOfWords('ships to Hangzhou')] });
    expect(embedder.model).toBe('nomic-embed-text');
    expect(model.requests.at(-1)).toMatchObject({
      path: '/v1/embeddings',
      authorization: 'Bearer sk-local',
      body: { model: 'nomic-embed-text', input: ['the customer refuses phone calls', 'ships to Hangzhou'] },
    });
  });

  const faults: Array<[Fault, string, RegExp]> = [
    ['slow', 'timeout', /within 500 ms/],
    ['reset', 'unreachable', /could not be reached/],
    ['http_500', 'http_error', /HTTP 500/],
    ['http_400', 'refused', /HTTP 400/],
    ['not_json', 'malformed_json', /other than JSON/],
    ['wrong_shape', 'invalid_output', /not an embeddings list/],
    ['wrong_count', 'wrong_count', /asked for 2 vectors, got 3/],
    ['wrong_dimensions', 'wrong_dimensions', /expected 16 dimensions, got a vector of 17/],
  ];
  for (const [fault, code, message] of faults) {
    it(`${fault}: an EmbeddingFailure (${code}), no vectors`, async () => {
      model.fault = fault;
      const answer = await embedder.embed(['one', 'two']);
      if (answer.ok) throw new Error(`expected a failure, got ${JSON.stringify(answer)}`);
      expect(answer.failure.code).toBe(code);
      expect(answer.failure.message).toMatch(message);
    });
  }

  it('holds every vector to the configured dimensions', async () => {
    model.fault = 'none';
    const sized = embedderFromEnv({
      MEMLEDGER_EMBEDDING_URL: model.baseUrl,
      MEMLEDGER_EMBEDDING_MODEL: 'm',
      MEMLEDGER_EMBEDDING_DIMENSIONS: String(DIMENSIONS * 2),
    })!;
    const answer = await sized.embed(['one']);
    expect(answer.ok ? 'vectors' : answer.failure.code).toBe('wrong_dimensions');
    expect(sized.dimensions).toBe(DIMENSIONS * 2);
  });

  it('an endpoint nobody listens on is unreachable, not a crash', async () => {
    const nobody = embedderFromEnv({ MEMLEDGER_EMBEDDING_URL: 'http://127.0.0.1:1/v1', MEMLEDGER_EMBEDDING_MODEL: 'm' })!;
    const answer = await nobody.embed(['one']);
    expect(answer.ok ? 'vectors' : answer.failure.code).toBe('unreachable');
  });

  it('unset is no embedder (lexical only); a bad variable is a ConfigError naming it', () => {
    expect(embedderFromEnv({})).toBeUndefined();
    expect(embedderFromEnv({ MEMLEDGER_EMBEDDING_URL: '  ' })).toBeUndefined();
    expect(() => embedderFromEnv({ MEMLEDGER_EMBEDDING_URL: 'http://127.0.0.1:11434/api', MEMLEDGER_EMBEDDING_MODEL: 'm' })).toThrow(
      /^MEMLEDGER_EMBEDDING_URL: /,
    );
    expect(() => embedderFromEnv({ MEMLEDGER_EMBEDDING_URL: 'ftp://host/v1', MEMLEDGER_EMBEDDING_MODEL: 'm' })).toThrow(ConfigError);
    expect(() => embedderFromEnv({ MEMLEDGER_EMBEDDING_URL: model.baseUrl })).toThrow(/MEMLEDGER_EMBEDDING_MODEL: is required/);
    const base = { MEMLEDGER_EMBEDDING_URL: model.baseUrl, MEMLEDGER_EMBEDDING_MODEL: 'm' };
    expect(() => embedderFromEnv({ ...base, MEMLEDGER_EMBEDDING_TIMEOUT_MS: 'soon' })).toThrow(/MEMLEDGER_EMBEDDING_TIMEOUT_MS/);
    expect(() => embedderFromEnv({ ...base, MEMLEDGER_EMBEDDING_DIMENSIONS: '0' })).toThrow(/MEMLEDGER_EMBEDDING_DIMENSIONS/);
    expect(() => embedderFromEnv({ ...base, MEMLEDGER_EMBEDDING_DIMENSIONS: '1.5' })).toThrow(/MEMLEDGER_EMBEDDING_DIMENSIONS/);
  });
});
