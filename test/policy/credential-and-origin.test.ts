// Trust bounded by the credential (issue 17 item 8), where content comes
// from (source ref schemes), and the entry the gate lets through.
import { describe, expect, it } from 'vitest';
import { requireEntry } from '../../src/domain/entry/entry.js';
import { boundClaim, ceilingAllowed, mayClaim, roleCeiling, type WriterCredential } from '../../src/domain/policy/credential-trust.js';
import { DEFAULT_WRITE_POLICY } from '../../src/domain/policy/default-policy.js';
import { evaluateWrite } from '../../src/domain/policy/evaluate.js';
import { gatedEntry } from '../../src/domain/policy/gated-entry.js';
import { DEFAULT_EXTERNAL_SCHEMES, isExternalRef, originOf } from '../../src/domain/policy/origin.js';
import { credentialFor } from './gate-fixtures.js';

const admin: WriterCredential = { role: 'admin', userChannel: false, ceiling: 'human_review' };

describe('credential trust', () => {
  it('gives each role the most it may claim', () => {
    expect(roleCeiling('admin', false)).toBe('human_review');
    expect(roleCeiling('reviewer', false)).toBe('human_review');
    expect(roleCeiling('writer', true)).toBe('user_assertion');
    expect(roleCeiling('writer', false)).toBe('verified_tool_fact');
    expect(roleCeiling('reader', false)).toBeUndefined();
    expect(ceilingAllowed('writer', false, 'human_review')).toBe(false);
    expect(ceilingAllowed('writer', true, 'derived_summary')).toBe(true);
    expect(ceilingAllowed('auditor', false, 'model_inference')).toBe(false);
  });

  it('lets human_review come only from a reviewer or admin, and user_assertion only from the user channel', () => {
    expect(mayClaim(admin, 'human_review')).toBe(true);
    expect(mayClaim(admin, 'user_assertion')).toBe(false);
    expect(mayClaim(admin, 'verified_tool_fact')).toBe(true);
    expect(mayClaim(credentialFor('user_assertion'), 'human_review')).toBe(false);
    expect(mayClaim(credentialFor('user_assertion'), 'user_assertion')).toBe(true);
    expect(mayClaim(credentialFor('verified_tool_fact'), 'user_assertion')).toBe(false);
    expect(mayClaim({ role: 'writer', userChannel: true, ceiling: 'derived_summary' }, 'verified_tool_fact')).toBe(false);
    // A key made with a ceiling its role may not have claims nothing.
    expect(mayClaim({ role: 'writer', userChannel: false, ceiling: 'human_review' }, 'model_inference')).toBe(false);
  });

  it('refuses or lowers a higher claim to the highest type the key may claim', () => {
    const agent = credentialFor('verified_tool_fact');
    expect(boundClaim(agent, 'human_review', 'refuse')).toEqual({
      outcome: 'refused',
      claimed: 'human_review',
      ceiling: 'verified_tool_fact',
    });
    expect(boundClaim(agent, 'user_assertion', 'lower')).toEqual({
      outcome: 'lowered',
      claimed: 'user_assertion',
      granted: 'verified_tool_fact',
    });
    expect(boundClaim(admin, 'user_assertion', 'lower')).toEqual({
      outcome: 'lowered',
      claimed: 'user_assertion',
      granted: 'verified_tool_fact',
    });
    expect(boundClaim(agent, 'model_inference', 'refuse')).toEqual({ outcome: 'granted', granted: 'model_inference' });
    const reader: WriterCredential = { role: 'reader', userChannel: false, ceiling: 'model_inference' };
    expect(boundClaim(reader, 'model_inference', 'lower').outcome).toBe('refused');
  });
});

describe('origin', () => {
  it.each([
    ['https://help.example.com/refunds', true],
    ['web://example-deals.com/promo', true],
    ['doc://kb/roles.pdf', true],
    ['tool+external://browser/call-7', true],
    ['TOOL+EXTERNAL://browser/call-7', true],
    ['tool://orders/call-3', false],
    ['msg://thread-9/turn-14', false],
    ['order:ORD-A1B2C3D4', false],
    ['no-scheme-ref', false],
  ])('%s is external: %s', (ref, external) => {
    expect(isExternalRef(ref, DEFAULT_EXTERNAL_SCHEMES)).toBe(external);
  });

  it('takes one external ref to make the entry external, and the tenant list to say which schemes are', () => {
    expect(originOf(['msg://t/1', 'https://x.example.com'], DEFAULT_EXTERNAL_SCHEMES)).toBe('external');
    expect(originOf(['msg://t/1'], DEFAULT_EXTERNAL_SCHEMES)).toBe('internal');
    expect(originOf(['crawler://site/1'], ['crawler'])).toBe('external');
    expect(originOf(['https://x.example.com'], [])).toBe('internal');
  });
});

describe('gatedEntry', () => {
  const now = '2026-07-15T10:00:00.000Z';
  const entry = (over: Record<string, unknown> = {}) =>
    requireEntry({
      kind: 'profile',
      key: 'delivery.method',
      value: { type: 'text', text: 'pickup' },
      source: { type: 'user_assertion' },
      ...over,
    });

  it('carries the effective sensitivity, the granted source type and a TTL as expiresAt', () => {
    const e = entry({ content: 'just this once, call 13812345678' });
    const verdict = evaluateWrite({ entry: e, credential: credentialFor('user_assertion'), marks: ['transient'] }, DEFAULT_WRITE_POLICY);
    expect(gatedEntry(e, verdict, now)).toEqual({ ...e, sensitivity: 'personal', expiresAt: '2026-07-16T10:00:00.000Z' });
  });

  it('keeps an earlier expiry of the entry itself', () => {
    const e = entry({ expiresAt: '2026-07-15T12:00:00Z' });
    const verdict = evaluateWrite({ entry: e, credential: credentialFor('user_assertion'), marks: ['transient'] }, DEFAULT_WRITE_POLICY);
    expect(gatedEntry(e, verdict, now).expiresAt).toBe('2026-07-15T12:00:00.000Z');
  });
});
