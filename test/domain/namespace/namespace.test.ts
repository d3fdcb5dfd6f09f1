// Namespaces as values (issue 19): `kind:id` subject ids, plain ids as
// tenant-level subjects, patterns, and the one access rule.
import { describe, expect, it } from 'vitest';
import {
  formatNamespace,
  isPrivate,
  isShared,
  mayAccess,
  mayAccessTenant,
  namespaceOf,
  parseNamespace,
  requireNamespacePatterns,
} from '../../../src/domain/namespace/index.js';

describe('namespaceOf / parseNamespace / formatNamespace', () => {
  it('reads kind:id for the five kinds; anything else is a tenant-level subject', () => {
    expect(namespaceOf('user:u-7')).toEqual({ kind: 'user', id: 'u-7', subject: 'user:u-7' });
    expect(namespaceOf('team:t-1')).toMatchObject({ kind: 'team', id: 't-1' });
    expect(namespaceOf('project:shop:a')).toMatchObject({ kind: 'project', id: 'shop:a' });
    for (const plain of ['u1', 'other:x', 'user:', 'User:u-7']) expect(namespaceOf(plain)).toEqual({ kind: 'tenant', subject: plain });
    expect(formatNamespace('agent', 'a-1')).toBe('agent:a-1');
    expect(namespaceOf(formatNamespace('thread', 'h-9'))).toMatchObject({ kind: 'thread', id: 'h-9' });
  });

  it('refuses a malformed subject id naming the field', () => {
    expect(() => parseNamespace('subject', 'user/u-7')).toThrow(expect.objectContaining({ field: 'subject' }));
    expect(() => parseNamespace('subject', undefined)).toThrow(expect.objectContaining({ field: 'subject' }));
  });

  it('tells shared (team, project) from private (user, agent, thread) namespaces', () => {
    expect(['team:t', 'project:p'].map((s) => isShared(namespaceOf(s)))).toEqual([true, true]);
    expect(['user:u', 'agent:a', 'thread:h', 'legacy'].map((s) => isShared(namespaceOf(s)))).toEqual([false, false, false, false]);
    expect(['user:u', 'agent:a', 'thread:h', 'team:t', 'legacy'].map((s) => isPrivate(namespaceOf(s)))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('patterns and access', () => {
  it('takes *, subject ids and prefixes ending in *; refuses anything else naming the field and the pattern', () => {
    expect(requireNamespacePatterns(['*', 'user:u-7', 'team:*'])).toEqual(['*', 'user:u-7', 'team:*']);
    for (const bad of ['user:*:x', 'a b', '**', '', 7]) {
      expect(() => requireNamespacePatterns(['team:*', bad], 'namespace')).toThrow(expect.objectContaining({ field: 'namespace' }));
    }
  });

  it("reaches a subject only in the key's tenant, in the key's environment and under one of its patterns", () => {
    const P = 'production' as const;
    const u7 = { tenant: 'acme', namespaces: ['user:u-7', 'team:*'], environment: P };
    const at = (subject: string, tenant = 'acme', environment: 'production' | 'test' = P) => ({ tenant, environment, subject });
    expect(mayAccess(u7, at('user:u-7'))).toBe(true);
    expect(mayAccess(u7, at('team:t-1'))).toBe(true);
    expect(mayAccess(u7, at('user:u-8'))).toBe(false);
    expect(mayAccess(u7, at('user:u-70'))).toBe(false);
    expect(mayAccess(u7, at('user:u-7', 'globex'))).toBe(false);
    expect(mayAccess({ ...u7, namespaces: [] }, at('u1'))).toBe(false);
    const all = { tenant: 'acme', namespaces: ['*'], environment: P };
    expect(mayAccess(all, at('u1'))).toBe(true);
    expect(mayAccessTenant(all, { tenant: 'acme', environment: P })).toBe(true);
    expect(mayAccessTenant(u7, { tenant: 'acme', environment: P })).toBe(false);
    expect(mayAccessTenant(all, { tenant: 'globex', environment: P })).toBe(false);
    // A test key never reaches a production tenant, nor a production key a test one.
    const testKey = { ...all, environment: 'test' as const };
    expect(mayAccess(testKey, at('u1'))).toBe(false);
    expect(mayAccessTenant(testKey, { tenant: 'acme', environment: P })).toBe(false);
    expect(mayAccess(all, at('u1', 'acme', 'test'))).toBe(false);
    expect(mayAccess(testKey, at('u1', 'acme', 'test'))).toBe(true);
  });
});
