// Recall's hard filters are judged once per reader and versions array, and
// kept while the clock crosses no instant where a version becomes valid,
// stops being valid or expires (src/queries/recall/filtered-versions.ts):
// whatever `now` and reader, what is kept equals judging every version again.
import { describe, expect, it } from 'vitest';
import { filterVersions } from '../../src/queries/recall/filtered-versions.js';
import { filterReason, type HardFilters } from '../../src/queries/recall/hard-filters.js';
import type { CurrentVersion } from '../../src/queries/recall/subject-view-shape.js';
import { currentVersion as version } from './support/current-version.js';

const at = (iso: string) => new Date(iso);

const versions: readonly CurrentVersion[] = [
  version('always'),
  version('later', { valid_from: at('2026-12-10T00:00:00.000Z') }),
  version('until', { valid_to: at('2026-12-05T00:00:00.000Z') }),
  version('expiring', { expires_at: at('2026-12-07T00:00:00.000Z') }),
  version('scoped', { scopes: { project: 'apollo' } }),
  version('restricted', { sensitivity: 'restricted' }),
  version('billing', { purposes: ['billing'] }),
  version('tainted', { source_type: 'web', source_refs: ['https://evil.example/x'] }),
  version('untrusted', { trust: 'untrusted' }),
  version('demoted'),
];

const reader = (now: string, overrides: Partial<HardFilters> = {}): HardFilters => ({
  scopes: {},
  maxSensitivity: 'personal',
  purpose: 'support',
  now: Date.parse(now),
  taint: { refPatterns: ['https://evil.example/*'], sourceTypes: [] },
  demoted: new Set(['demoted']),
  ...overrides,
});

/** Every version judged on its own, as recall did before. */
function judgedAfresh(filters: HardFilters) {
  const reasons = new Map<string, string>();
  for (const v of versions) {
    const reason = filterReason(v, filters);
    if (reason) reasons.set(v.memory_id, reason);
  }
  return { passing: versions.filter((v) => !reasons.has(v.memory_id)).map((v) => v.memory_id), reasons };
}

const idsOf = (filtered: ReturnType<typeof filterVersions>) => filtered.passing.map((v) => v.memory_id);

describe('hard filters kept per reader', () => {
  it('equal judging every version afresh at every instant, boundaries included, for several readers in turn', () => {
    const instants = [
      '2026-12-01T00:00:00.000Z',
      '2026-12-04T23:59:59.999Z',
      '2026-12-05T00:00:00.000Z', // valid_to reached: no longer valid
      '2026-12-06T12:00:00.000Z',
      '2026-12-07T00:00:00.000Z', // expired
      '2026-12-09T23:59:59.999Z',
      '2026-12-10T00:00:00.000Z', // valid_from reached: valid
      '2026-12-20T00:00:00.000Z',
      '2026-12-02T00:00:00.000Z', // back in time (an as-of recall)
    ];
    const readers = [
      (now: string) => reader(now),
      (now: string) => reader(now, { scopes: { project: 'apollo' }, maxSensitivity: 'restricted', purpose: undefined }),
      (now: string) => reader(now, { demoted: new Set(), taint: { refPatterns: [], sourceTypes: [] } }),
    ];
    for (const now of instants)
      for (const make of readers) {
        const filters = make(now);
        const kept = filterVersions(versions, filters);
        const fresh = judgedAfresh(filters);
        expect(idsOf(kept), `${now}`).toEqual(fresh.passing);
        expect(new Map(kept.reasons)).toEqual(fresh.reasons);
        const counted = Object.entries(kept.excluded).filter(([, n]) => n > 0);
        const expected = [...fresh.reasons.values()].reduce<Record<string, number>>((c, r) => ({ ...c, [r]: (c[r] ?? 0) + 1 }), {});
        expect(Object.fromEntries(counted)).toEqual(expected);
      }
  });

  it('are not judged again while no boundary is crossed: the very result, its passing array included', () => {
    const own = versions.map((v) => ({ ...v }));
    const first = filterVersions(own, reader('2026-12-05T00:00:00.000Z'));
    const again = filterVersions(own, reader('2026-12-06T23:59:59.999Z'));
    expect(again).toBe(first);
    expect(again.passing).toBe(first.passing);
    // Another reader (its filters in other objects with the same content) shares it; another purpose does not.
    expect(filterVersions(own, reader('2026-12-06T00:00:00.000Z', { demoted: new Set(['demoted']) }))).toBe(first);
    expect(filterVersions(own, reader('2026-12-06T00:00:00.000Z', { purpose: 'billing' }))).not.toBe(first);
    // The expiry at 12-07 is crossed: judged again, and 'expiring' is out.
    const expired = filterVersions(own, reader('2026-12-07T00:00:00.000Z'));
    expect(expired).not.toBe(first);
    expect(idsOf(first)).toContain('expiring');
    expect(idsOf(expired)).not.toContain('expiring');
    expect(expired.reasons.get('expiring')).toBe('expired');
    // Another versions array (the corpus moved) is judged on its own.
    expect(filterVersions([...own], reader('2026-12-06T00:00:00.000Z'))).not.toBe(first);
  });
});
