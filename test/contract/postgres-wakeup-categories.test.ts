// What a NOTIFY says it is about, and whom it concerns (wakeup-categories.ts).
import { describe, expect, it } from 'vitest';
import {
  decodeCategories,
  encodeCategories,
  mayConcern,
  streamCategory,
} from '../../src/infrastructure/event-store/postgres/wakeup-categories.js';

describe('wakeup categories', () => {
  it('names a stream by its name up to the first dash', () => {
    expect(streamCategory('memory-acme/u-1')).toBe('memory-');
    expect(streamCategory('lifecycle-policy-acme')).toBe('lifecycle-');
    expect(streamCategory('plain')).toBe('plain');
  });

  it('round-trips through the payload; a payload it cannot read concerns everyone', () => {
    expect(decodeCategories(encodeCategories(new Set(['recall-', 'memory-'])))).toEqual(new Set(['memory-', 'recall-']));
    for (const payload of [undefined, '', 'not json', '{"a":1}', '[1]']) expect(decodeCategories(payload)).toBeUndefined();
    const many = new Set(Array.from({ length: 200 }, (_, i) => `category${i}-`));
    expect(encodeCategories(many)).toBe('');
  });

  it('concerns a filter whose stream prefixes a stream of the categories could start with', () => {
    const projector = { streamPrefixes: ['memory-', 'artifact-'] };
    expect(mayConcern(new Set(['recall-']), projector)).toBe(false);
    expect(mayConcern(new Set(['recall-', 'artifact-']), projector)).toBe(true);
    // A prefix longer than the category: `memory-acme/` streams are `memory-` streams.
    expect(mayConcern(new Set(['memory-']), { streamPrefixes: ['memory-acme/'] })).toBe(true);
    expect(mayConcern(new Set(['write-']), { streamPrefixes: ['write-policy-'] })).toBe(true);
    // A prefix shorter than the category.
    expect(mayConcern(new Set(['memory-']), { streamPrefixes: ['mem'] })).toBe(true);
    // Unknown categories, or a filter without stream prefixes: always.
    expect(mayConcern(undefined, projector)).toBe(true);
    expect(mayConcern(new Set(['recall-']), undefined)).toBe(true);
    expect(mayConcern(new Set(['recall-']), { eventTypePrefixes: ['Memory'] })).toBe(true);
  });
});
