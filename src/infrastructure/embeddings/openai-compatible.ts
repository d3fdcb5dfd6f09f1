// An OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama, vLLM,
// llama.cpp's server, …) as the embedder. The answer is validated (zod):
// one finite, non-empty vector per text, matched by `index`, all of one
// length (the configured one, when set).
import { z } from 'zod';
import type { EndpointConfig } from '../model-endpoint/endpoint-config.js';
import { EndpointFailure, postJson } from '../model-endpoint/post-json.js';
import { EmbeddingFailure, MAX_EMBEDDING_BATCH, type Embedder, type Embedding } from './port.js';

const answerSchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().min(0),
      embedding: z.array(z.number().refine(Number.isFinite)).min(1),
    }),
  ),
});

export interface EmbeddingEndpointConfig extends EndpointConfig {
  readonly dimensions?: number;
}

export function openAiCompatibleEmbedder(config: EmbeddingEndpointConfig): Embedder {
  return {
    model: config.model,
    ...(config.dimensions !== undefined ? { dimensions: config.dimensions } : {}),
    embed: (texts) => embed(config, texts),
  };
}

async function embed(config: EmbeddingEndpointConfig, texts: readonly string[]): Promise<Embedding> {
  if (texts.length === 0) return { ok: true, vectors: [] };
  if (texts.length > MAX_EMBEDDING_BATCH) throw new RangeError(`at most ${MAX_EMBEDDING_BATCH} texts per call`);
  try {
    const body = await postJson(config, '/embeddings', { model: config.model, input: texts, encoding_format: 'float' }, 'embedding');
    return { ok: true, vectors: vectorsOf(body, texts.length, config.dimensions) };
  } catch (error) {
    if (error instanceof EndpointFailure || error instanceof EmbeddingFailure)
      return { ok: false, failure: error instanceof EmbeddingFailure ? error : new EmbeddingFailure(error.code, error.message) };
    throw error;
  }
}

function vectorsOf(body: unknown, count: number, dimensions: number | undefined): number[][] {
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success)
    throw new EmbeddingFailure('invalid_output', 'the answer is not an embeddings list (data[].embedding of finite numbers)');
  const { data } = parsed.data;
  if (data.length !== count) throw new EmbeddingFailure('wrong_count', `asked for ${count} vectors, got ${data.length}`);
  const vectors: number[][] = new Array<number[]>(count);
  for (const item of data) {
    if (item.index >= count || vectors[item.index] !== undefined)
      throw new EmbeddingFailure('invalid_output', 'the answer does not give each input exactly one index');
    vectors[item.index] = item.embedding;
  }
  const expected = dimensions ?? vectors[0]!.length;
  const wrong = vectors.find((v) => v.length !== expected);
  if (wrong) throw new EmbeddingFailure('wrong_dimensions', `expected ${expected} dimensions, got a vector of ${wrong.length}`);
  return vectors;
}
