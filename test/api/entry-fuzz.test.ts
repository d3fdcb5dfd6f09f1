// Fuzzing the write boundary (issue 12): entries with random instants,
// numbers, strings (lone surrogates, NUL, RTL marks, emoji) and subject ids
// go through the CLI's validation (the record command's own steps, in
// process: contextOf, readJson, requireEntry, reportError) and through the
// HTTP API of a running service into a real store and projector. Every
// input is refused with exit 2 / 400 naming a field — the same field both
// ways — or accepted both ways; afterwards every subject written is
// readable by recall, as-of and replay (as-of from the projection equals
// replay from the log), and the projector never stopped: /readyz is ready
// and no projection fault was recorded.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireEntry } from '../../src/domain/entry/entry.js';
import { readJson } from '../../src/cli/input.js';
import { reportError } from '../../src/cli/output.js';
import { contextOf } from '../../src/cli/session.js';
import { problemOf, startTestService, type TestService } from './service.js';

const RUNS = Number(process.env.MEMLEDGER_FUZZ_RUNS ?? 2000);
const BATCH = 10;

let t: TestService;
let writer: string;
let auditor: string;
let reader: string;

beforeAll(async () => {
  t = await startTestService('api_entry_fuzz', { config: { consolidationWorkers: 0, sweepIntervalMs: 0 } });
  [writer, auditor, reader] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'auditor'), t.key('acme', 'reader')]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const nasty = fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\u200f', '\ufeff', '👩‍👩‍👧', '\ud83d\ude00', '\u0007', 'é', ' ', '\n');
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.oneof(nasty, fc.string({ maxLength: 3 })), { maxLength: 6 }).map((parts) => parts.join('')),
);
const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, '0');
/** Instants around and beyond what the stores hold: years 0-10000, odd offsets, and strings that are no instant. */
const instant = fc.oneof(
  fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 9998, max: 10_000 })),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 24 }),
      offset: fc.constantFrom('Z', '+01:00', '-14:00', '+14:00', '+23:59', '', '+1'),
    })
    .map(({ year, month, day, hour, offset }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:30:00${offset}`),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  text,
);
const amount = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constantFrom('1e999', '-0', '0.1', '00', '1.', 'NaN', '1_000'),
);
const value = fc.oneof(
  text.map((t) => ({ type: 'text', text: t })),
  amount.map((a) => ({ type: 'number', amount: a })),
  instant.map((d) => ({ type: 'date', date: d.slice(0, 10) })),
  fc.boolean().map((b) => ({ type: 'boolean', value: b })),
);
/** Mostly a valid value, sometimes anything (the fuzz): every field is often at fault, and about a fifth of the cases reach the store (each append costs far more than a refusal). */
const mostly = <T, U>(valid: fc.Arbitrary<T>, fuzz: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fuzz });
/** Text a client may well send: emoji, RTL marks, accents, surrogate pairs (all well-formed). */
const fineText = fc
  .array(
    fc.oneof(fc.constantFrom('👩‍👩‍👧', '\ud83d\ude00', '\u202e', '\u200f', 'é', 'ß', '中文', 'x'), fc.string({ minLength: 1, maxLength: 4 })),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((parts) => parts.join('').replace(/\p{Cc}/gu, '') || 'x');
const fineInstant = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
// 40 subjects (one at the longest valid id): writers seldom race for one stream, and every subject is read afterwards.
const validSubject = fc.integer({ min: 0, max: 39 }).map((n) => (n === 0 ? 'a'.repeat(128) : `subject-${n}`));
const subject = mostly(
  validSubject,
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 140 }).filter((s) => s !== '.' && s !== '..'),
);
const entry = fc.record(
  {
    kind: mostly(fc.constantFrom('semantic', 'profile', 'episodic'), text),
    key: mostly(fc.constantFrom('a.b', 'notification.preference', 'x-1.y_2'), text),
    value: mostly(
      fc.oneof(
        fineText.map((t) => ({ type: 'text', text: t })),
        fc.integer().map((a) => ({ type: 'number', amount: a })),
      ),
      value,
    ),
    source: mostly(
      fc.oneof(
        fc.constant({ type: 'user_assertion' }),
        fc.nat().map((n) => ({ type: 'user_assertion', refs: [`msg://thread-${n}`] })),
      ),
      text.map((ref) => ({ type: 'user_assertion', refs: [ref] })),
    ),
    content: mostly(fineText, text),
    confidence: mostly(fc.double({ min: 0, max: 1, noNaN: true }), fc.double()),
    validFrom: mostly(fineInstant, instant),
    expiresAt: mostly(fineInstant, instant),
  },
  { requiredKeys: ['kind', 'key', 'value', 'source'] },
);

type Verdict = { accepted: true; memoryId?: string } | { accepted: false; field: string };

/**
 * `memledger record --tenant acme --subject S --entry JSON`, its validation
 * steps in process (contextOf, readJson, then recordMemory's requireEntry):
 * the verdict and the exit code. The HTTP request then writes the entry, so
 * each case costs one append, not two.
 */
function viaCli(subjectId: string, json: string): Verdict & { exit: number } {
  try {
    contextOf({ tenant: 'acme', subject: subjectId });
    requireEntry(readJson('entry', json));
    return { accepted: true, exit: 0 };
  } catch (error) {
    const report = reportError(error);
    return { accepted: false, field: report.body.field ?? '', exit: report.exitCode };
  }
}

async function viaHttp(subjectId: string, json: string): Promise<Verdict & { status: number }> {
  const response = await t.request('POST', `/v1/subjects/${encodeURIComponent(subjectId)}/memories`, { key: writer, rawBody: json });
  if (response.status === 200 || response.status === 201)
    return { accepted: true, memoryId: String((response.body as { memoryId: unknown }).memoryId), status: response.status };
  return { accepted: false, field: problemOf(response).field ?? '', status: response.status };
}

describe('fuzzing entries through the CLI and the HTTP API', () => {
  it(`${RUNS} random entries: each refused (2 / 400) naming the same field both ways, or accepted both ways and readable`, async () => {
    const written = new Map<string, Set<string>>();
    let accepted = 0;
    const check = async (subjectId: string, candidate: unknown) => {
      const json = JSON.stringify(candidate);
      const cli = viaCli(subjectId, json);
      const http = await viaHttp(subjectId, json);
      if (!cli.accepted) {
        expect(cli.exit, JSON.stringify(cli)).toBe(2);
        expect(cli.field).not.toBe('');
        expect(http, json).toMatchObject({ accepted: false, status: 400, field: cli.field });
        return;
      }
      if (!http.accepted) throw new Error(`${json}: the CLI's validation accepts it, the HTTP API refuses it: ${JSON.stringify(http)}`);
      accepted++;
      const ids = written.get(subjectId) ?? new Set<string>();
      ids.add(http.memoryId ?? '');
      written.set(subjectId, ids);
    };
    const started = performance.now();
    // Cases go in batches run at once (as concurrent clients would), so 2,000 of them take seconds, not minutes.
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(subject, entry), { minLength: BATCH, maxLength: BATCH }), async (cases) => {
        await Promise.all(cases.map(([subjectId, candidate]) => check(subjectId, candidate)));
      }),
      { numRuns: Math.ceil(RUNS / BATCH), endOnFailure: true },
    );
    // Enough of the cases are accepted for the reads below to mean something.
    expect(accepted).toBeGreaterThan(RUNS / 10);

    const wrote = performance.now() - started;
    const now = new Date().toISOString();
    for (const subjectId of written.keys()) {
      const path = `/v1/subjects/${encodeURIComponent(subjectId)}`;
      const asOf = await t.request('GET', `${path}/as-of?systemTime=${encodeURIComponent(now)}`, { key: auditor });
      const replay = await t.request('GET', `${path}/replay?at=${encodeURIComponent(now)}`, { key: auditor });
      const recall = await t.request('GET', `${path}/recall`, { key: reader });
      expect([asOf.status, replay.status, recall.status], `${subjectId}: ${asOf.text} ${replay.text} ${recall.text}`).toEqual([
        200, 200, 200,
      ]);
      const believed = (answer: { body: { beliefs: Array<{ memoryId: string }> } }) => answer.body.beliefs.map((b) => b.memoryId).sort();
      expect(believed(asOf)).toEqual(believed(replay));
    }
    console.log(
      `fuzz: ${RUNS} cases, ${accepted} accepted, writes ${Math.round(wrote)} ms, reads ${Math.round(performance.now() - started - wrote)} ms`,
    );
    const ready = await t.request('GET', '/readyz');
    expect(ready.status, ready.text).toBe(200);
    expect((await t.request('GET', '/metrics')).text).toMatch(/^memledger_projection_faults\{projection="memory"\} 0$/m);
  }, 300_000);
});
