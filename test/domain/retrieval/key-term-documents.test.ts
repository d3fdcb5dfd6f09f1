// The key signal looks up the documents of the key terms a question names
// (corpus/key-term-documents.ts) instead of asking every document: it must
// find exactly what the scan of every accepted document found — prefixes
// either way, key filters exact and wildcard, kind filters, and a key term
// held by exactly half of the documents (still distinctive) — and an index
// updated after a write must hold the same lookup as one built afresh.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRetrievalIndex,
  DEFAULT_RETRIEVAL_POLICY,
  keyMatcher,
  tokenize,
  updateRetrievalIndex,
  type RetrievalDocument,
  type RetrievalIndex,
} from '../../../src/domain/retrieval/index.js';
import { idf } from '../../../src/domain/retrieval/corpus/term-statistics.js';
import { keyMatches } from '../../../src/domain/retrieval/signals/key.js';
import { isWildcard } from '../../../src/domain/retrieval/request/key-pattern.js';
import { MEMORY_KINDS, type MemoryKind } from '../../../src/domain/entry/vocabulary.js';
import { doc } from './documents.js';

const KEYS = [
  'notification.preference',
  'notification.quiet_hours',
  'notif.channel',
  'contact.phone',
  'contact.email',
  'preferences.language',
  'pref.tone',
  'order.o12',
  'delivery.window',
  'deliv.slot',
  'chat.turn',
  'contact.email.work.primary.notification',
  'order.o12.delivery.window.preference',
];
const QUERY_WORDS = ['notification', 'notifications', 'notif', 'noti', 'not', 'preference', 'prefer', 'pref', 'contact', 'phone', 'email'];
const QUERY_MORE = ['delivery', 'deliv', 'deli', 'window', 'order', 'o12', 'chat', 'turn', 'tone', 'language', 'languages', 'what'];
const FILTERS = [undefined, 'notification.*', '*.preference', 'contact.phone', '*', 'chat.turn', '*.*', 'pref.*'];

/** The key signal as it was: every accepted document asked whether the question names one of its key terms. */
function scannedKeyMatches(
  index: RetrievalIndex,
  queryTerms: readonly string[],
  accepted: readonly string[],
  keyFilter: string | undefined,
) {
  const minPrefix = DEFAULT_RETRIEVAL_POLICY.lexical.prefixMinLength;
  const named = (t: string) =>
    queryTerms.some((q) => q === t || (q.length >= minPrefix && t.startsWith(q)) || (t.length >= minPrefix && q.startsWith(t)));
  const filterStrength = keyFilter === undefined ? 0 : isWildcard(keyFilter) ? 0.5 : 1;
  const out: Array<{ id: string; strength: number; via: string; terms: readonly string[] }> = [];
  for (const id of accepted) {
    const { keyTerms } = index.documents.get(id)!;
    if (filterStrength === 0 && !keyTerms.some(named)) continue;
    let all = 0;
    let hit = 0;
    let distinct = false;
    const terms: string[] = [];
    for (const term of keyTerms) {
      const w = idf(index.keyTerms, term);
      all += w;
      if (!named(term)) continue;
      hit += w;
      terms.push(term);
      if ((index.keyTerms.frequency.get(term) ?? 0) <= index.size / 2) distinct = true;
    }
    const share = all > 0 ? hit / all : 0;
    const own = distinct && share >= 0.5 ? share : 0;
    const strength = Math.max(own, filterStrength);
    if (strength === 0) continue;
    const via = own >= filterStrength ? 'query_terms' : 'key_filter';
    out.push({ id, strength, via, terms: via === 'query_terms' ? terms : [] });
  }
  return out;
}

function lookedUp(index: RetrievalIndex, query: string, keyFilter: string | undefined, kind: MemoryKind | undefined) {
  const terms = [...new Set(tokenize(query))];
  const matchesKey = keyFilter === undefined ? undefined : keyMatcher(keyFilter);
  const accept = (id: string) => {
    const d = index.documents.get(id)!.document;
    return (kind === undefined || d.kind === kind) && (matchesKey === undefined || matchesKey(d.key));
  };
  const accepted = index.ids.filter(accept);
  const found = keyMatches(index, terms, accepted, accept, keyFilter, DEFAULT_RETRIEVAL_POLICY).map((m) => {
    const reason = m.reason(1);
    if (reason.code !== 'key_match') throw new Error(reason.code);
    return { id: m.id, strength: m.strength, via: reason.via, terms: reason.terms };
  });
  return { found, scanned: scannedKeyMatches(index, terms, accepted, keyFilter) };
}

const subjectArb = fc
  .array(fc.record({ key: fc.constantFrom(...KEYS), kind: fc.constantFrom(...MEMORY_KINDS) }), { minLength: 1, maxLength: 30 })
  .map((rows) => rows.map((r, i): RetrievalDocument => doc(`m-${String(i).padStart(2, '0')}`, { key: r.key, kind: r.kind })));

const questionArb = fc.record({
  query: fc.array(fc.constantFrom(...QUERY_WORDS, ...QUERY_MORE), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  key: fc.constantFrom(...FILTERS),
  kind: fc.option(fc.constantFrom(...MEMORY_KINDS), { nil: undefined }),
});

describe('key matches through the key-term lookup', () => {
  it('are what the scan of every accepted document finds', () => {
    fc.assert(
      fc.property(subjectArb, questionArb, (documents, q) => {
        const { found, scanned } = lookedUp(buildRetrievalIndex(documents), q.query, q.key, q.kind);
        expect(found).toEqual(scanned);
      }),
      { numRuns: 400 },
    );
  });

  it('count a key term held by exactly half of the documents as distinctive, one held by more as not', () => {
    const half = [
      doc('a', { key: 'notification' }),
      doc('b', { key: 'notification' }),
      doc('c', { key: 'contact' }),
      doc('d', { key: 'phone' }),
    ];
    const atHalf = lookedUp(buildRetrievalIndex(half), 'notifications', undefined, undefined);
    expect(atHalf.found.map((m) => m.id)).toEqual(['a', 'b']);
    expect(atHalf.found).toEqual(atHalf.scanned);
    const overHalf = lookedUp(buildRetrievalIndex([...half, doc('e', { key: 'notification' })]), 'notifications', undefined, undefined);
    expect(overHalf.found).toEqual([]);
    expect(overHalf.scanned).toEqual([]);
  });

  it('meet key terms by prefix both ways, as the scan did', () => {
    const index = buildRetrievalIndex(
      ['phone', 'phonebook', 'deliv', 'delivery', 'contact', 'order'].map((key, i) => doc(`m-${i}`, { key })),
    );
    const named = (query: string) => {
      const { found, scanned } = lookedUp(index, query, undefined, undefined);
      expect(found).toEqual(scanned);
      return found.map((m) => m.id);
    };
    // "phone" begins the key term "phonebook"; the key term "phone" begins "phonebook".
    expect(named('phone')).toEqual(['m-0', 'm-1']);
    expect(named('phonebook')).toEqual(['m-0', 'm-1']);
    // "deliveries" is the term "deliver", which the key term "deliv" begins.
    expect(named('deliveries')).toEqual(['m-2', 'm-3']);
    expect(named('deliv')).toEqual(['m-2', 'm-3']);
    // "deli" is the term "del": shorter than a prefix may be.
    expect(named('deli')).toEqual([]);
  });

  it('weigh key terms as the scan did when one index is asked many questions, and its update after a write more', () => {
    // Key weights are worked out once per index (signals/key-weights.ts): an updated index has its own.
    fc.assert(
      fc.property(subjectArb, subjectArb, fc.array(questionArb, { minLength: 1, maxLength: 8 }), (before, more, questions) => {
        const index = buildRetrievalIndex(before);
        for (const q of questions) {
          const { found, scanned } = lookedUp(index, q.query, q.key, q.kind);
          expect(found).toEqual(scanned);
        }
        const after = [...before, ...more.map((d) => ({ ...d, id: `n-${d.id}` }))];
        const updated = updateRetrievalIndex(index, after, Number.POSITIVE_INFINITY)!;
        for (const q of questions) {
          const { found, scanned } = lookedUp(updated, q.query, q.key, q.kind);
          expect(found).toEqual(scanned);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('are held alike by an index updated after a write and one built from the same documents', () => {
    fc.assert(
      fc.property(subjectArb, subjectArb, (before, after) => {
        const renamed = after.map((d, i) => (i % 3 === 0 && before[i] ? before[i] : d));
        const updated = updateRetrievalIndex(buildRetrievalIndex(before), renamed, Number.POSITIVE_INFINITY)!;
        const built = buildRetrievalIndex(renamed);
        expect(updated.keyTermDocuments).toEqual(built.keyTermDocuments);
      }),
      { numRuns: 200 },
    );
  });
});
