// A key filter: an exact key (`notification.preference`), or segments with
// `*` wildcards. `*` stands for one segment (`*.preference`), except at the
// end, where it stands for one or more (`notification.*` = every key under
// notification, at any depth); `*` alone matches every key.
import { z } from 'zod';
import { MAX_KEY_LENGTH } from '../../entry/key.js';
import { fieldMessage } from '../../validation/invalid-input.js';

const SEGMENT = /^(?:\*|[A-Za-z0-9][A-Za-z0-9_-]*)$/;

export const keyPatternSchema = z
  .string({ error: fieldMessage('must be a string') })
  .max(MAX_KEY_LENGTH, { error: `must be at most ${MAX_KEY_LENGTH} characters` })
  .refine((pattern) => pattern.split('.').every((s) => SEGMENT.test(s)), {
    error: 'must be a key or a key pattern: dot-separated segments of letters, digits, _ and -, or *, e.g. "notification.*"',
  });

export type KeyMatcher = (key: string) => boolean;

/** A matcher for a pattern that passed keyPatternSchema. */
export function keyMatcher(pattern: string): KeyMatcher {
  const want = pattern.split('.');
  if (!want.includes('*')) return (key) => key === pattern;
  const openEnded = want.at(-1) === '*';
  return (key) => {
    const have = key.split('.');
    if (openEnded ? have.length < want.length : have.length !== want.length) return false;
    return want.every((segment, i) => segment === '*' || segment === have[i]);
  };
}

export const isWildcard = (pattern: string): boolean => pattern.split('.').includes('*');
