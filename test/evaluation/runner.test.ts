// The harness on a real ledger (test database): a few shipped cases played
// into fresh tenants and scored under A-E; then a stale and an unauthorized
// memory let through on purpose (a retrieval that reads an earlier system
// time, one that also reads the lure's namespace — both real queries) make
// the verdict blocking, while production recall on the same cases does not.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCaseLines } from '../../src/domain/evaluation/case-lines.js';
import type { EvalCase } from '../../src/domain/evaluation/case.js';
import { runEvaluation } from '../../src/evaluation/run.js';
import { productionRetrieval, type Retrieval } from '../../src/evaluation/serving.js';
import { SHIPPED_CASES } from '../../src/evaluation/shipped-cases.js';
import { openReadSide, type OpenReadSide } from '../../src/queries/read-side.js';
import { asOf } from '../../src/queries/as-of.js';
import type { Belief } from '../../src/queries/belief.js';
import type { MemoryItem } from '../../src/queries/recall/items.js';
import { recall } from '../../src/queries/recall/recall.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';

let t: TestLedger;
let read: OpenReadSide;
beforeAll(async () => {
  t = await openTestLedger('evaluation_runner');
  read = await openReadSide(t.ledger, { tokenizer: true });
});
afterAll(async () => {
  await read?.close();
  await t?.close();
});

const shipped = parseCaseLines(readFileSync(SHIPPED_CASES, 'utf8'));
/** A belief served as if recall had served it: the item a stale cache of recall answers would hold. */
const asItem = (b: Belief): MemoryItem => ({
  type: 'memory',
  memoryId: b.memoryId,
  kind: b.kind,
  key: b.key,
  scopes: b.scopes,
  value: b.personal.status === 'readable' ? b.personal.value : { type: 'text', text: '(forgotten)' },
  polarity: b.polarity,
  confidence: b.confidence,
  sensitivity: b.sensitivity,
  validFrom: b.validFrom,
  validTo: b.validTo,
  expiresAt: b.expiresAt,
  text: b.key,
  tokens: 5,
  priority: 0,
  provenance: {
    memoryId: b.memoryId,
    version: b.version,
    sequence: b.sequence,
    source: b.source,
    trust: b.trust,
    consentRef: b.consentRef,
    recordedAt: b.recordedAt,
    recordedBy: b.recordedBy,
  },
});

const pick = (...ids: string[]): EvalCase[] => ids.map((id) => shipped.find((c) => c.case_id === id)!);

describe('runEvaluation', () => {
  it('scores a few shipped cases under A-E on a real ledger', async () => {
    const cases = pick(
      'M-PREF-001-en',
      'M-PREF-004-zh',
      'M-CONFLICT-001-en',
      'M-ERASE-001-en',
      'M-LURE-TENANT-001-en',
      'M-LURE-SUBJECT-010-zh',
    );
    const report = await runEvaluation(t.ledger, read, cases, { conditions: ['A', 'B', 'C', 'D', 'E'], k: 5 });
    const by = Object.fromEntries(report.conditions.map((c) => [c.condition, c]));
    // A serves nothing: no recall, nothing stale or unauthorized.
    expect(by.A!.metrics).toMatchObject({ cases: 6, memoryRecallAtK: 0, staleServed: 0, unauthorizedServed: 0, memoryPrecisionAtK: null });
    // B serves exactly what the cases expect, with their provenance.
    expect(by.B!.metrics).toMatchObject({ memoryRecallAtK: 1, memoryPrecisionAtK: 1, requiredMemoryRecall: 1, sourceCitationAccuracy: 1 });
    expect(by.B!.metrics.conflictSurfacingRate).toBe(1);
    // D is judged on the cases with invalidated or conflicting memory, E on those with forbidden namespaces.
    expect(by.D!.metrics.cases).toBe(4);
    expect(by.E!.metrics.cases).toBe(2);
    for (const c of ['C', 'D', 'E'] as const) {
      expect(by[c]!.metrics).toMatchObject({ staleServed: 0, unauthorizedServed: 0, unauthorizedRetrievalRate: 0 });
      expect(by[c]!.blocking).toBe(false);
    }
    expect([by.C!.metrics.staleMemoryRate, by.D!.metrics.staleMemoryRate, by.E!.metrics.staleMemoryRate]).toEqual([0, 0, null]);
    expect(by.C!.metrics.memoryRecallAtK).toBeGreaterThan(0);
    expect(by.C!.metrics.conflictSurfacingRate).toBe(1);
    expect(report.blocking).toBe(false);
  });

  it('is blocking under D when a retrieval serves what the subject believed before the supersession (as-of an earlier system time)', async () => {
    const cases = pick('M-PREF-001-en', 'M-THRESH-004-zh');
    // A stale cache: production recall plus the beliefs as of the subject's first event, before anything superseded them.
    const staleCache: Retrieval = async (r, task) => {
      const { tenant, subject } = task.played.home;
      const [first] = await read.eventStore.readStream(subjectStreamName(tenant, subject), { maxCount: 1 });
      const then = await asOf(r, { tenant, subject, systemTime: first!.recordedAt.toISOString() });
      return [...(await productionRetrieval(r, task)), ...then.beliefs.map(asItem)];
    };
    const leaked = await runEvaluation(t.ledger, read, cases, { conditions: ['D'], k: 5, retrieval: staleCache });
    const d = leaked.conditions[0]!;
    expect(d.blocking).toBe(true);
    expect(d.metrics.staleMemoryRate).toBe(1);
    expect(d.regressions.map((r) => [r.caseId, r.stale])).toEqual([
      ['M-PREF-001-en', ['mem_v1']],
      ['M-THRESH-004-zh', ['mem_thr_v1']],
    ]);

    const clean = await runEvaluation(t.ledger, read, cases, { conditions: ['D'], k: 5 });
    expect(clean.blocking).toBe(false);
    expect(clean.conditions[0]!.metrics).toMatchObject({ staleMemoryRate: 0, staleServed: 0 });
  });

  it('is blocking under E when a retrieval also reads the lure namespace, and not with production recall', async () => {
    const cases = pick('M-LURE-TENANT-001-en', 'M-LURE-SUBJECT-004-en');
    const leaky: Retrieval = async (r, task) => {
      const items = [...(await productionRetrieval(r, task))];
      for (const target of task.played.targets.values())
        if (target !== task.played.home) items.push(...(await recall(r, { ...target, query: task.query, topK: task.k })).items);
      return items;
    };
    const leaked = await runEvaluation(t.ledger, read, cases, { conditions: ['E'], k: 5, retrieval: leaky });
    const e = leaked.conditions[0]!;
    expect(e.blocking).toBe(true);
    expect(leaked.blocking).toBe(true);
    expect(e.metrics.unauthorizedRetrievalRate).toBe(1);
    expect(e.regressions.map((r) => r.caseId).sort()).toEqual(['M-LURE-SUBJECT-004-en', 'M-LURE-TENANT-001-en']);
    expect(e.regressions[0]!.unauthorized).toContain('mem_lure');

    const clean = await runEvaluation(t.ledger, read, cases, { conditions: ['E'], k: 5 });
    expect(clean.blocking).toBe(false);
    expect(clean.conditions[0]!.metrics.unauthorizedRetrievalRate).toBe(0);
  });
});
