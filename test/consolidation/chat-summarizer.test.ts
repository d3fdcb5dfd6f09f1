// The OpenAI-compatible summarizer against a local HTTP server that this
// test starts (a stand-in model): whatever comes back — a slow answer,
// missing fields, malformed JSON, an HTTP error, a summary that drops a
// fact — ends as a typed GenerationFailed or GateFailed, never as a
// published artifact; and once the model answers well the next run publishes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { prepareConsolidation } from '../../src/commands/consolidation/prepare.js';
import { readableSummary } from '../../src/commands/consolidation/readable-summary.js';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import { recordMemory } from '../../src/commands/record.js';
import { ConfigError } from '../../src/infrastructure/config.js';
import { summarizerFromEnv } from '../../src/infrastructure/summarizer/from-env.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { artifactEventTypes, subjectState, testServices } from './support.js';

type Mode = 'good' | 'slow' | 'missing_fields' | 'malformed' | 'http_500' | 'drops_negation' | 'fenced';
let mode: Mode = 'good';
let server: Server;
let baseUrl: string;
const seen: Array<{ authorization?: string; model?: string }> = [];
let t: TestLedger;

interface Entry {
  memoryId: string;
  key: string;
  scopes: object;
  value: unknown;
  polarity: string;
  content?: string;
}

/** A stand-in model: restates every entry faithfully, unless told to misbehave. */
function answer(request: { model: string; messages: Array<{ content: string }> }): unknown {
  const user = JSON.parse(request.messages[1]!.content) as {
    entries: Entry[];
    conflicts: Array<{ conflictId: string; memoryIds: string[] }>;
  };
  const isTask = (key: string) => key.startsWith('task.');
  const claims = user.entries
    .filter((e) => !isTask(e.key))
    .map((e) => ({
      key: e.key,
      scopes: e.scopes,
      value: e.value,
      polarity: e.polarity,
      derivedFrom: [e.memoryId],
      conflictIds: user.conflicts.filter((c) => c.memoryIds.includes(e.memoryId)).map((c) => c.conflictId),
      ...(e.content !== undefined ? { statement: e.content } : {}),
    }));
  const output = {
    claims:
      mode === 'drops_negation'
        ? claims.filter((c) => c.polarity !== 'negated')
        : mode === 'missing_fields'
          ? claims.map(({ derivedFrom: _d, ...rest }) => rest)
          : claims,
    openItems: user.entries.filter((e) => isTask(e.key)).map((e) => ({ text: `pending: ${e.key}`, derivedFrom: [e.memoryId] })),
    conflicts: user.conflicts.map((c) => c.conflictId),
    summary: 'The customer keeps a contact rule, a refund wait and a pending refund.',
  };
  const content =
    mode === 'malformed'
      ? 'Sure! Here is the summary: {"claims": ['
      : mode === 'fenced'
        ? `\`\`\`json\n${JSON.stringify(output)}\n\`\`\``
        : JSON.stringify(output);
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  };
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const request = JSON.parse(await body(req));
    seen.push({ ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), model: request.model });
    if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    if (mode === 'http_500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
    const reply = JSON.stringify(answer(request));
    if (mode === 'slow') {
      // Headers now, the body too late: a slow stream is a slow answer.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(reply.slice(0, 10));
      setTimeout(() => res.end(reply.slice(10)), 10_000).unref();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  t = await openTestLedger('consolidation_chat');
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

async function chatServices() {
  const summarizer = summarizerFromEnv({
    MEMLEDGER_SUMMARIZER_URL: baseUrl,
    MEMLEDGER_SUMMARIZER_MODEL: 'stand-in-model-2026-06',
    MEMLEDGER_SUMMARIZER_API_KEY: 'sk-test',
    MEMLEDGER_SUMMARIZER_TIMEOUT_MS: '2000',
  });
  return testServices({ summarizer });
}

async function seed(subject: string) {
  const c = { tenant: 'acme', subject };
  await recordMemory(t.ledger, c, {
    kind: 'constraint',
    key: 'contact.phone_calls',
    value: { type: 'boolean', value: true },
    polarity: 'negated',
    source: { type: 'user_assertion' },
  });
  await recordMemory(t.ledger, c, {
    kind: 'semantic',
    key: 'order.refund.wait',
    value: { type: 'number', amount: '72', unit: 'h' },
    source: { type: 'verified_tool_fact' },
  });
  await recordMemory(t.ledger, c, {
    kind: 'procedural',
    key: 'task.refund.ORD-A1B2C3D4',
    value: { type: 'text', text: 'awaits approval' },
    source: { type: 'verified_tool_fact' },
  });
  return c;
}

describe('the chat-completions summarizer', () => {
  it('a faithful answer is gated and published; the manifest names the model and prompt', async () => {
    mode = 'good';
    const c = await seed('chat-good');
    const outcome = await runConsolidation(t.ledger, await chatServices(), c);
    expect(outcome).toMatchObject({ ok: true, result: { status: 'switched' } });
    const readable = await readableSummary(t.ledger, c);
    expect(readable.status).toBe('summary');
    const alias = (await subjectState(t.ledger, c)).alias!;
    expect((await readArtifact(t.ledger.eventStore, alias.artifactId)).generated?.manifest).toMatchObject({
      modelSnapshot: 'stand-in-model-2026-06',
      promptVersion: 'consolidate-v3',
    });
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer sk-test', model: 'stand-in-model-2026-06' });
  });

  it('an answer in a ```json fence is read as JSON', async () => {
    mode = 'fenced';
    const c = await seed('chat-fenced');
    expect(await runConsolidation(t.ledger, await chatServices(), c)).toMatchObject({ ok: true, result: { status: 'switched' } });
  });

  const faults: Array<[Mode, string, RegExp]> = [
    ['slow', 'timeout', /within 2000 ms/],
    ['missing_fields', 'invalid_output', /^output\.claims\.0\.derivedFrom: /],
    ['malformed', 'malformed_json', /not valid JSON/],
    ['http_500', 'http_error', /HTTP 500/],
  ];
  for (const [fault, code, message] of faults) {
    it(`${fault}: GenerationFailed (${code}) with its manifest, nothing readable; the next run publishes`, async () => {
      mode = fault;
      const c = await seed(`chat-${fault}`);
      const services = await chatServices();
      const failed = await runConsolidation(t.ledger, services, c);
      if (!failed.ok || failed.result.status !== 'generation_failed' || !('prepare' in failed.result))
        throw new Error(`expected a failed generation, got ${JSON.stringify(failed)}`);
      const { prepare } = failed.result;
      expect(prepare.generationError).toMatchObject({ code });
      expect(prepare.generationError?.message).toMatch(message);
      expect(await artifactEventTypes(t.ledger, prepare.artifactId)).toEqual(['GenerationFailed']);
      expect((await readArtifact(t.ledger.eventStore, prepare.artifactId)).generationFailed?.manifest?.inputs).toHaveLength(3);
      expect((await subjectState(t.ledger, c)).alias).toBeNull();
      expect(await readableSummary(t.ledger, c)).toMatchObject({ status: 'raw', reason: 'no_alias' });

      mode = 'good';
      const next = await runConsolidation(t.ledger, services, c);
      if (!next.ok || !('publish' in next.result)) throw new Error('the next run did not publish');
      expect(next.result.publish.status).toBe('switched');
      // A new try of the same snapshot is a new artifact; the failed one stays for audit.
      expect(next.result.prepare.artifactId).not.toBe(prepare.artifactId);
      expect(await artifactEventTypes(t.ledger, prepare.artifactId)).toEqual(['GenerationFailed']);
    });
  }

  it('a summary that drops a fact fails the gate and is never published', async () => {
    mode = 'drops_negation';
    const c = await seed('chat-lossy');
    const outcome = await prepareConsolidation(t.ledger, await chatServices(), c);
    expect(outcome).toMatchObject({ ok: true, result: { status: 'gate_failed' } });
    expect(outcome.ok && outcome.result.gate.reasons?.map((r) => r.code)).toEqual(['missing_fact']);
    expect(await runConsolidation(t.ledger, await chatServices(), c)).toMatchObject({ ok: true, result: { status: 'gate_failed' } });
    expect((await subjectState(t.ledger, c)).alias).toBeNull();
  });

  it('its configuration is validated, naming the variable', () => {
    expect(() => summarizerFromEnv({ MEMLEDGER_SUMMARIZER_URL: 'http://127.0.0.1:1/api' })).toThrow(ConfigError);
    expect(() => summarizerFromEnv({ MEMLEDGER_SUMMARIZER_URL: baseUrl })).toThrow(/MEMLEDGER_SUMMARIZER_MODEL/);
    expect(() =>
      summarizerFromEnv({ MEMLEDGER_SUMMARIZER_URL: baseUrl, MEMLEDGER_SUMMARIZER_MODEL: 'm', MEMLEDGER_SUMMARIZER_TIMEOUT_MS: 'soon' }),
    ).toThrow(/MEMLEDGER_SUMMARIZER_TIMEOUT_MS/);
    expect(summarizerFromEnv({}).modelSnapshot).toBe('deterministic-v2');
  });
});
