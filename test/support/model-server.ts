// A stand-in model endpoint on a local port (no mock of our code: the
// adapters speak real HTTP to it): /v1/embeddings answers with a
// deterministic bag-of-words vector per text, /v1/chat/completions with
// whatever the test's `chat` answers. `fault` makes it misbehave.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'none' | 'slow' | 'http_500' | 'http_400' | 'not_json' | 'wrong_shape' | 'wrong_count' | 'wrong_dimensions' | 'reset';

/** What the adapters send: an embeddings request or a chat request. */
export interface ModelRequestBody {
  readonly model: string;
  readonly input?: string[];
  readonly messages?: Array<{ role: string; content: string }>;
  readonly temperature?: number;
}

export interface ModelServer {
  readonly baseUrl: string;
  fault: Fault;
  /** The chat answer's message content, from the request's user message. */
  chat: (user: string) => string;
  /** Each embedded text's vector: bagOfWords unless a test says otherwise. */
  embedding: (text: string) => number[];
  readonly requests: Array<{ path: string; authorization?: string; body: ModelRequestBody }>;
  close(): Promise<void>;
}

export const DIMENSIONS = 16;

/** The environment that points the ledger's embedder at this server, with `model`. */
export const embeddingEnv = (server: Pick<ModelServer, 'baseUrl'>, model: string) => ({
  MEMLEDGER_EMBEDDING_URL: server.baseUrl,
  MEMLEDGER_EMBEDDING_MODEL: model,
  MEMLEDGER_EMBEDDING_TIMEOUT_MS: '1000',
});

/** Each word (lower-cased, split on non-letters) adds 1 at its hash's dimension. */
export function bagOfWords(text: string, dimensions = DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    let h = 0;
    for (const ch of word) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
    vector[h % dimensions]! += 1;
  }
  return vector;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startModelServer(): Promise<ModelServer> {
  const state: ModelServer = {
    baseUrl: '',
    fault: 'none',
    chat: () => '{"queries":[]}',
    embedding: (text) => bagOfWords(text),
    requests: [],
    close: async () => {},
  };
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = JSON.parse(await bodyOf(req)) as ModelRequestBody;
    state.requests.push({ path: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
    const send = (payload: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    switch (state.fault) {
      case 'http_500':
        return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
      case 'http_400':
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad model"}');
      case 'not_json':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('<html>gateway</html>');
      case 'reset':
        return void req.socket.destroy();
      case 'slow':
        // Headers now, the body too late: a slow stream is a slow answer.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":');
        setTimeout(() => res.end('[]}'), 5_000).unref();
        return;
      default:
        break;
    }
    if (req.url === '/v1/embeddings') {
      const inputs = body.input ?? [];
      if (state.fault === 'wrong_shape') return send({ data: inputs.map((_t, index) => ({ index, embedding: 'fast' })) });
      const count = state.fault === 'wrong_count' ? inputs.length + 1 : inputs.length;
      const data = Array.from({ length: count }, (_x, index) => ({
        object: 'embedding',
        index,
        embedding:
          state.fault === 'wrong_dimensions' && index > 0
            ? bagOfWords(inputs[index % inputs.length]!, DIMENSIONS + 1)
            : state.embedding(inputs[index % inputs.length]!),
      }));
      return send({ object: 'list', model: body.model, data });
    }
    if (req.url === '/v1/chat/completions') {
      if (state.fault === 'wrong_shape') return send({ choices: [] });
      const content = state.chat(body.messages?.[1]?.content ?? '');
      return send({
        id: 'c1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      });
    }
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
