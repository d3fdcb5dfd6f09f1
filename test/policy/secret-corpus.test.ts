// The secret detectors against the labeled corpus (issue 17 item 3): recall
// on true secrets must be 100%, precision at least 95%, and each true secret
// must be named by the kind its row gives. Figures are printed for the note.
import { describe, expect, it } from 'vitest';
import { categoryOf, DETECTION_KINDS, type DetectionKind } from '../../src/domain/policy/detection.js';
import { inspectEntry } from '../../src/domain/policy/inspect.js';
import { notRandom } from '../../src/domain/policy/secrets/high-entropy.js';
import { requireEntry } from '../../src/domain/entry/entry.js';
import { NEAR_MISSES, TRUE_SECRETS } from './corpus/secrets.corpus.js';
import { ALNUM, B64, B64URL, BASE32, synth } from './corpus/synthetic.js';

/** Secrets found by the full inspection of an entry whose content is the text. */
function secretsIn(text: string) {
  const entry = requireEntry({
    kind: 'semantic',
    key: 'corpus.row',
    value: { type: 'text', text: 'x' },
    content: text,
    source: { type: 'user_assertion' },
  });
  return inspectEntry(entry).filter((d) => categoryOf(d.kind) === 'secret');
}

describe('secret corpus', () => {
  it('has at least 60 true secrets and 60 near-misses, with known kinds and distinct ids', () => {
    expect(TRUE_SECRETS.length).toBeGreaterThanOrEqual(60);
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(60);
    for (const row of TRUE_SECRETS) expect(DETECTION_KINDS).toContain(row.kind as DetectionKind);
    const ids = [...TRUE_SECRETS, ...NEAR_MISSES].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('finds every true secret (recall 100%) with precision of at least 95%, naming the right kind', () => {
    const missed = TRUE_SECRETS.filter((row) => secretsIn(row.text).length === 0).map((r) => r.id);
    const misnamed = TRUE_SECRETS.filter((row) => !secretsIn(row.text).some((d) => d.kind === row.kind)).map((r) => r.id);
    const falseAlarms = NEAR_MISSES.filter((row) => secretsIn(row.text).length > 0).map((r) => r.id);
    const truePositives = TRUE_SECRETS.length - missed.length;
    const recall = truePositives / TRUE_SECRETS.length;
    const precision = truePositives / (truePositives + falseAlarms.length);
    console.log(
      `secret corpus: ${TRUE_SECRETS.length} secrets, ${NEAR_MISSES.length} near-misses; recall ${(recall * 100).toFixed(1)}%, ` +
        `precision ${(precision * 100).toFixed(1)}%, kind named right ${TRUE_SECRETS.length - misnamed.length}/${TRUE_SECRETS.length}; ` +
        `missed [${missed.join(', ')}], false alarms [${falseAlarms.join(', ')}]`,
    );
    expect(missed).toEqual([]);
    expect(misnamed).toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.95);
  });

  it('reports where a secret is, never what it is', () => {
    for (const row of TRUE_SECRETS) {
      for (const d of secretsIn(row.text)) {
        expect(Object.keys(d).sort()).toEqual(['end', 'field', 'kind', 'start']);
        expect(d.start).toBeGreaterThanOrEqual(0);
        expect(d.end).toBeLessThanOrEqual(row.text.length);
        expect(d.end - d.start).toBeGreaterThanOrEqual(4);
        expect(JSON.stringify(d)).not.toContain(row.text.slice(d.start, d.end));
      }
    }
  });
});

describe('high-entropy tokens', () => {
  // The generic check trades recall on short random tokens for precision on ids; these are its measured bounds.
  it.each([
    [20, ALNUM, 0.97],
    [32, ALNUM, 0.99],
    [40, B64, 0.99],
    [48, B64URL, 0.98],
    [40, BASE32, 0.99],
  ] as const)('takes random tokens of %i characters for secrets (at least the rate given)', (length, alphabet, rate) => {
    const tokens = Array.from({ length: 2000 }, (_, i) => synth(length, alphabet, 90_000 + i));
    const taken = tokens.filter((t) => notRandom(t) === undefined).length;
    expect(taken / tokens.length).toBeGreaterThanOrEqual(rate);
  });

  it.each([
    ['hex digest', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'hex or digits'],
    ['ULID', '01HY8K3ZJ5Q2X7N9R4T6V8W0YB', 'upper-case id'],
    ['camel case', 'ConsolidationScheduleWorkerSupervisor2', 'low entropy'],
    ['Stripe price id', 'price_1MoBy5LkdIwHu7ixZhnattbh', 'public id'],
    ['base64 of text', 'VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==', 'encoded file or text'],
    ['short segments', 'Ab3-Cd4e-Fg5h-Ij6k-Lm7n', 'id-like segments'],
  ])('says why a %s is not a secret', (_name, token, reason) => {
    expect(notRandom(token)).toBe(reason);
  });
});
