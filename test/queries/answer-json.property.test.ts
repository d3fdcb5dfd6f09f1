// A recall answer's JSON (src/queries/recall/answer-json.ts) is the very
// text JSON.stringify writes (in UTF-8), whatever the members around `items` and
// whatever the items (shared between answers or not, made from kept items with
// an explanation and a place or not); and the HTTP recall answers with it as JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainedItem, prioritisedItem, recallAnswerJson } from '../../src/queries/recall/answer-json.js';

// Any UTF-16 (lone surrogates included: JSON.stringify escapes them), members with undefined values too (it leaves them
// out), and keys that need escaping.
const value = fc.jsonValue({ stringUnit: 'binary' });
const key = fc.string({ unit: 'binary' });
const members = fc.dictionary(key, fc.option(value, { nil: undefined }), { maxKeys: 6 });
const item = fc.dictionary(key, fc.option(value, { nil: undefined }), { minKeys: 0, maxKeys: 5 });

describe('recall answer JSON', () => {
  it('is JSON.stringify of the answer, items anywhere among its members', () => {
    fc.assert(
      fc.property(members, fc.array(item, { maxLength: 6 }), members, (before, items, after) => {
        const answer = { ...before, items, ...after };
        // `items` may be overwritten by a member after it: the answer's own place of it is what counts.
        if (!Array.isArray(answer.items)) return;
        for (const kept of [true, false])
          expect(recallAnswerJson(answer as { items: object[] }, kept).toString('utf8')).toBe(JSON.stringify(answer));
      }),
      { numRuns: 500 },
    );
  });

  it('writes an item shared by two answers the same in each, as it is when asked', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), members, (items, rest) => {
        const first = { recallId: 'r-1', ...rest, items };
        const second = { recallId: 'r-2', items: [...items].reverse(), notice: 'n' };
        const text = (answer: { items: object[] }) => recallAnswerJson(answer, true).toString('utf8');
        expect(text(first)).toBe(JSON.stringify(first));
        expect(text(second)).toBe(JSON.stringify(second));
        expect(text(first)).toBe(JSON.stringify(first));
      }),
      { numRuns: 200 },
    );
  });

  it('writes an item made from a kept one (explained, then placed) as JSON.stringify writes it, the kept one serving many answers', () => {
    // Kept items with a priority anywhere among their members or none, an explanation already or not.
    const kept = fc.tuple(item, fc.option(fc.integer(), { nil: undefined }), item, fc.option(value, { nil: undefined }), fc.boolean());
    fc.assert(
      fc.property(fc.array(kept, { minLength: 1, maxLength: 4 }), members, (specs, rest) => {
        const bases = specs.map(([before, priority, after, retrieval, hasPriority]) => ({
          ...before,
          ...(hasPriority ? { priority } : {}),
          ...after,
          ...(retrieval !== undefined ? { retrieval } : {}),
        }));
        for (const round of [1, 2, 3]) {
          const items = bases.map((base, i) => {
            const explained =
              (i + round) % 2 === 0 ? explainedItem(base, { score: round / 7, reasons: [{ code: 'lexical', rank: i }] }) : base;
            return prioritisedItem(explained, round * 10 + i);
          });
          const answer = { recallId: `r-${round}`, ...rest, items };
          for (const itemsKept of [false, true]) expect(recallAnswerJson(answer, itemsKept).toString('utf8')).toBe(JSON.stringify(answer));
        }
      }),
      { numRuns: 300 },
    );
  });
});
