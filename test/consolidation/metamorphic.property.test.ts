// Metamorphic properties of consolidation (DESIGN section 9.7, seed 000
// "用变形测试证明压缩没有悄悄变义"): inserting irrelevant events, regrouping
// the inputs into different batches, and running the worker twice leave the
// must-preserve result and the conflict set unchanged — and every summary
// the deterministic summarizer writes passes the gate.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountTokens } from '../../src/domain/consolidation/cold-tier.js';
import { summarizeDeterministically } from '../../src/domain/consolidation/deterministic-summary.js';
import { mustPreserveDigest } from '../../src/domain/consolidation/must-preserve.js';
import type { SummarizerOutput } from '../../src/domain/consolidation/output.js';
import { consolidationDue } from '../../src/domain/consolidation/schedule.js';
import {
  gateOutput,
  generationRequest,
  takeSnapshot,
  type ConsolidationSnapshot,
  type OpenEntry,
} from '../../src/domain/consolidation/snapshot.js';
import type { Manifest } from '../../src/domain/events/manifest.js';
import type { SubjectCommand } from '../../src/domain/subject/commands.js';
import type { SubjectState } from '../../src/domain/subject/state.js';
import type { Value } from '../../src/domain/values/value.js';
import { loadTokenCounter } from '../../src/infrastructure/summarizer/tokenizer.js';
import { record, run, runAll, sealed, T2 } from '../domain/fixtures.js';
import { spelled } from './support.js';

let countTokens: CountTokens;
beforeAll(async () => {
  countTokens = await loadTokenCounter();
});

interface Spec {
  readonly key: string;
  readonly kind: 'profile' | 'semantic' | 'episodic' | 'constraint';
  readonly value: Value;
  readonly polarity: 'affirmed' | 'negated';
  readonly project?: 'shop-a' | 'shop-b';
  readonly source: 'user_assertion' | 'model_inference' | 'verified_tool_fact';
  readonly day: number;
  /** Free text with facts of its own (issue 15), in English or Chinese, or none. */
  readonly content?: string;
}

/** Contents whose words hold negations, numbers with units, money, dates, ids — or nothing. */
const CONTENTS: ReadonlyArray<(p: number) => string> = [
  (p) => `Refunds wait at most ${['72', '27', '3.5'][p % 3]} hours for approval.`,
  (p) => `It is not true that she never wants ${['phone calls', 'e-mail'][p % 2]}.`,
  (p) => `订单ORD-A1B2C3D${p % 10}退款${['45.9', '54.9'][p % 2]}元，${p % 2 ? '不要' : ''}电话通知。`,
  (p) => `Rule R00${p % 3} applies from 2026-07-1${p % 5}; ticket #4821${p % 4}. The customer was polite.`,
  (p) => `下午${(p % 5) + 1}点以后别打电话，周末也不行。`,
  () => 'The customer chatted about the weather.',
];

const KEYS = [
  'notification.preference',
  'order.wait',
  'contact.manager',
  'decision.database',
  'task.refund',
  'profile.language',
  'account.limit',
] as const;

function valueFor(key: string, pick: number): Value {
  switch (key) {
    case 'order.wait':
      return { type: 'number', amount: ['72', '27', '3'][pick % 3]!, unit: ['h', 'd', 'h'][pick % 3]! };
    case 'account.limit':
      return { type: 'number', amount: String(100 * (pick % 4)), unit: 'MB' };
    case 'contact.manager':
      return { type: 'entity', id: `person:li-wei-${pick % 2}` };
    default:
      return { type: 'text', text: ['sms', 'email', 'postgres', 'mysql'][pick % 4]! };
  }
}

const specArb: fc.Arbitrary<Spec> = fc
  .record({
    key: fc.constantFrom(...KEYS),
    kind: fc.constantFrom('profile', 'semantic', 'episodic', 'constraint'),
    pick: fc.nat(11),
    negated: fc.boolean(),
    project: fc.constantFrom(undefined, 'shop-a', 'shop-b'),
    source: fc.constantFrom('user_assertion', 'model_inference', 'verified_tool_fact'),
    day: fc.integer({ min: 1, max: 9 }),
    words: fc.option(fc.nat(CONTENTS.length - 1), { nil: undefined }),
  })
  .map(({ key, kind, pick, negated, project, source, day, words }) => ({
    key,
    kind,
    value: valueFor(key, pick),
    polarity: negated && pick % 3 === 0 ? 'negated' : 'affirmed',
    ...(project ? { project } : {}),
    source,
    day,
    ...(words !== undefined ? { content: CONTENTS[words]!(pick) } : {}),
  }));

/** What the irrelevant events are: notes under keys of their own (not must-preserve), and trust changes of refs nobody uses. */
type Noise = { readonly kind: 'note'; readonly n: number } | { readonly kind: 'trust'; readonly n: number };
const noiseArb: fc.Arbitrary<Noise> = fc.oneof(
  fc.nat(1000).map((n) => ({ kind: 'note' as const, n })),
  fc.nat(1000).map((n) => ({ kind: 'trust' as const, n })),
);

interface Built {
  readonly state: SubjectState;
  readonly open: OpenEntry;
}

function build(steps: ReadonlyArray<{ spec: Spec; id: string } | { noise: Noise; id: string }>): Built {
  const values = new Map<string, { value: Value; content?: string }>();
  const commands: SubjectCommand[] = steps.map((step) => {
    if ('spec' in step) {
      const { spec } = step;
      values.set(step.id, { value: spec.value, ...(spec.content !== undefined ? { content: spec.content } : {}) });
      const validFrom = `2026-07-0${spec.day}T00:00:00.000Z`;
      const entry = sealed({
        kind: spec.kind,
        key: spec.key,
        value: spec.value,
        polarity: spec.polarity,
        source: { type: spec.source, refs: [`msg://${step.id}`] },
        validFrom,
        ...(spec.project ? { scopes: { project: spec.project } } : {}),
        ...(spec.content !== undefined ? { content: spec.content } : {}),
      });
      return record(step.id, entry, T2, `c-${step.id}`);
    }
    if (step.noise.kind === 'note') {
      const value: Value = { type: 'text', text: `irrelevant ${spelled(step.noise.n)}` };
      values.set(step.id, { value, content: 'small talk' });
      return record(
        step.id,
        sealed({
          kind: 'episodic',
          key: `smalltalk.n${step.id}`,
          value,
          content: 'small talk',
          source: { type: 'user_assertion', refs: [] },
        }),
        T2,
      );
    }
    return { type: 'ChangeTrust', sourceRef: `msg://unused-${step.noise.n}`, level: 'verified_tool_fact', now: T2 };
  });
  const { state } = runAll(commands);
  return { state, open: (entry) => values.get(entry.memoryId) };
}

const base = (specs: readonly Spec[]) => specs.map((spec, i) => ({ spec, id: `m-${i + 1}` }));

function snapshot(
  built: Built,
  options: { through?: number; parent?: { manifest: Manifest; output: SummarizerOutput }; budget?: number } = {},
): ConsolidationSnapshot {
  return takeSnapshot(built.state, built.open, {
    tenant: 'acme',
    subject: 'user-7',
    now: '2026-07-15T00:00:00.000Z',
    tokenBudget: options.budget ?? 150,
    countTokens,
    promptVersion: 'template-v2',
    modelSnapshot: 'deterministic-v2',
    ...(options.through !== undefined ? { through: options.through } : {}),
    ...(options.parent ? { parent: options.parent } : {}),
  });
}

function summarize(s: ConsolidationSnapshot): SummarizerOutput {
  const output = summarizeDeterministically(generationRequest(s));
  const verdict = gateOutput(s, output, countTokens);
  expect(verdict.passed ? [] : verdict.reasons).toEqual([]);
  return output;
}

/** Publishes through the decider's fence, as the publish command does. */
function publish(built: Built, manifest: Manifest): Built {
  return { ...built, state: run(built.state, { type: 'SwitchSummaryAlias', manifest, now: T2 }).state };
}

/** Consolidates in batches cut at `cuts`, each the parent of the next, through H: the last snapshot, its output, the state after it. */
function inBatches(start: Built, cuts: readonly number[], budget: number) {
  let built = start;
  const H = built.state.highWaterMark;
  let parent: { manifest: Manifest; output: SummarizerOutput } | undefined;
  let last: { snapshot: ConsolidationSnapshot; output: SummarizerOutput } | undefined;
  const throughs = [...new Set(cuts.map((c) => 1 + (c % H)))].sort((x, y) => x - y);
  for (const through of [...throughs.filter((x) => x < H), H]) {
    const s = snapshot(built, { through, budget, ...(parent ? { parent } : {}) });
    if (parent) expect(s.manifest.parentArtifactId).toBe(parent.manifest.artifactId);
    const output = summarize(s);
    built = publish(built, s.manifest);
    parent = { manifest: s.manifest, output };
    last = { snapshot: s, output };
  }
  return { ...last!, built };
}

/** A loss in the words (issue 15): the first digit of the first statement that has one, moved by one. */
function lossInWords(output: SummarizerOutput): SummarizerOutput | undefined {
  const at = output.claims.findIndex((c) => c.statement !== undefined && /\d/u.test(c.statement));
  if (at < 0) return undefined;
  const moved = (text: string) => text.replace(/\d/u, (d) => String((Number(d) + 1) % 10));
  return { ...output, claims: output.claims.map((c, i) => (i === at ? { ...c, statement: moved(c.statement!) } : c)) };
}

/** The gate's verdict in a form two consolidations of the same inputs share: code, fact kind, memory, span. */
function verdictOf(s: ConsolidationSnapshot, output: SummarizerOutput): string[] {
  const result = gateOutput(s, output, countTokens);
  return result.passed ? [] : result.reasons.map((r) => [r.code, r.factKind, r.memoryId, r.span?.start, r.span?.end].join(' ')).sort();
}

describe('consolidation is metamorphic', () => {
  it('inserting irrelevant events leaves the must-preserve result and the conflict set unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(specArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.tuple(noiseArb, fc.nat()), { maxLength: 15 }),
        (specs, noise) => {
          const plain = base(specs);
          const noisy: Array<{ spec: Spec; id: string } | { noise: Noise; id: string }> = [...plain];
          noise.forEach(([n, at], i) => noisy.splice(at % (noisy.length + 1), 0, { noise: n, id: `x-${i + 1}` }));
          const a = snapshot(build(plain));
          const b = snapshot(build(noisy));
          expect(mustPreserveDigest(b.mustPreserve)).toBe(mustPreserveDigest(a.mustPreserve));
          expect(b.manifest.conflictIds).toEqual(a.manifest.conflictIds);
          expect(summarize(b).conflicts).toEqual(summarize(a).conflicts);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('regrouping the inputs into batches (each consolidation the parent of the next) gives what one consolidation of all gives', () => {
    fc.assert(
      fc.property(
        fc.array(specArb, { minLength: 2, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(60, 150, 100_000),
        (specs, cuts, budget) => {
          const built = build(base(specs));
          const direct = snapshot(built, { budget });
          const directOutput = summarize(direct);
          const chained = inBatches(built, cuts, budget);
          const last = { manifest: chained.snapshot.manifest, output: chained.output };
          const final = snapshot(chained.built, { budget });
          expect(mustPreserveDigest(final.mustPreserve)).toBe(mustPreserveDigest(direct.mustPreserve));
          expect(last.manifest.conflictIds).toEqual(direct.manifest.conflictIds);
          expect(last.output.conflicts).toEqual(directOutput.conflicts);
          expect(last.output.claims).toEqual(directOutput.claims);
          expect(last.manifest.inputRoot).toBe(direct.manifest.inputRoot);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a loss in the words is refused with the same verdict with irrelevant events inserted, in batches, and on a retry', () => {
    fc.assert(
      fc.property(
        fc.array(specArb, { minLength: 1, maxLength: 20 }),
        fc.array(fc.tuple(noiseArb, fc.nat()), { maxLength: 10 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        (specs, noise, cuts) => {
          const plain = base(specs);
          const built = build(plain);
          const direct = snapshot(built);
          const lossy = lossInWords(summarize(direct));
          fc.pre(lossy !== undefined);
          const expected = verdictOf(direct, lossy);
          expect(expected.length).toBeGreaterThan(0);

          const noisy: Array<{ spec: Spec; id: string } | { noise: Noise; id: string }> = [...plain];
          noise.forEach(([n, at], i) => noisy.splice(at % (noisy.length + 1), 0, { noise: n, id: `x-${i + 1}` }));
          const withNoise = snapshot(build(noisy));
          expect(verdictOf(withNoise, lossInWords(summarize(withNoise))!)).toEqual(expected);

          const retried = snapshot(built);
          expect(verdictOf(retried, lossInWords(summarize(retried))!)).toEqual(expected);

          const chained = inBatches(built, cuts, 150);
          expect(verdictOf(chained.snapshot, lossInWords(chained.output)!)).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('running the worker twice gives the same artifact, and after its switch the subject is no longer due', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 25 }), (specs) => {
        const built = build(base(specs));
        const first = snapshot(built);
        const second = snapshot(built);
        expect(second.manifest).toEqual(first.manifest);
        expect(mustPreserveDigest(second.mustPreserve)).toBe(mustPreserveDigest(first.mustPreserve));
        expect(summarize(second)).toEqual(summarize(first));
        expect(consolidationDue(built.state, 1)).not.toBeNull();
        const after = publish(built, first.manifest);
        expect(consolidationDue(after.state, 1)).toBeNull();
        // A retry after the switch is fenced: the expected alias no longer matches.
        expect(() => publish(after, first.manifest)).toThrow(/alias_changed/);
      }),
      { numRuns: 40 },
    );
  });
});
