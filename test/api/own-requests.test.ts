// The service's credentials for its requests to itself: bound to a tenant and
// role and namespaces, gone once revoked or expired, and never a way in for another token.
import { describe, expect, it } from 'vitest';
import { OwnRequestKeys } from '../../src/api/auth/own-requests.js';

describe('own request keys', () => {
  it('authenticate only while issued and unexpired, as the tenant, role and namespaces they were made for', () => {
    let now = 1_000_000;
    const keys = new OwnRequestKeys(() => now);
    const a = keys.issue('acme', 'auditor', 'erasure-check', ['user:u-7']);
    const b = keys.issue('globex', 'auditor', 'erasure-check', ['u1']);
    expect(a).not.toBe(b);
    expect(keys.principalOf(a)).toEqual({
      keyId: 'in-process:erasure-check',
      tenant: 'acme',
      role: 'auditor',
      namespaces: ['user:u-7'],
      channel: 'service',
      environment: 'production',
      tenantEnvironment: 'production',
    });
    expect(keys.principalOf(b)?.tenant).toBe('globex');
    expect(keys.principalOf(`${a}x`)).toBeUndefined();
    keys.revoke(a);
    expect(keys.principalOf(a)).toBeUndefined();
    now += 60_001;
    expect(keys.principalOf(b)).toBeUndefined();
  });
});
