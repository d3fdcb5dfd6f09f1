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

  it("reaches a subject only in the key's tenant and under one of its patterns", () => {
    const u7 = { tenant: 'acme', namespaces: ['user:u-7', 'team:*'] };
    expect(mayAccess(u7, { tenant: 'acme', subject: 'user:u-7' })).toBe(true);
    expect(mayAccess(u7, { tenant: 'acme', subject: 'team:t-1' })).toBe(true);
    expect(mayAccess(u7, { tenant: 'acme', subject: 'user:u-8' })).toBe(false);
    expect(mayAccess(u7, { tenant: 'acme', subject: 'user:u-70' })).toBe(false);
    expect(mayAccess(u7, { tenant: 'globex', subject: 'user:u-7' })).toBe(false);
    expect(mayAccess({ tenant: 'acme', namespaces: [] }, { tenant: 'acme', subject: 'u1' })).toBe(false);
    expect(mayAccess({ tenant: 'acme', namespaces: ['*'] }, { tenant: 'acme', subject: 'u1' })).toBe(true);
    expect(mayAccessTenant({ tenant: 'acme', namespaces: ['*'] }, 'acme')).toBe(true);
    expect(mayAccessTenant(u7, 'acme')).toBe(false);
    expect(mayAccessTenant({ tenant: 'acme', namespaces: ['*'] }, 'globex')).toBe(false);
  });
});
