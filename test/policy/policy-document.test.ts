// The write policy document: what `policy set` takes, with errors that name
// the field, and what `policy show` prints (durations back in ISO 8601).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY_DOCUMENT,
  DEFAULT_WRITE_POLICY,
  PERSONAL_IDENTIFIERS_REFUSED_RULE,
} from '../../src/domain/policy/default-policy.js';
import { describeWritePolicy, parseWritePolicy } from '../../src/domain/policy/policy-document.js';

function errorOf(input: unknown): { field: string; reason: string } {
  const parsed = parseWritePolicy(input);
  if (parsed.ok) throw new Error('expected the policy to be refused');
  return { field: parsed.error.field, reason: parsed.error.reason };
}

const rule = (over: Record<string, unknown> = {}) => ({ id: 'r1', then: { decision: 'candidate' }, ...over });

describe('write policy document', () => {
  it('fills the defaults of an empty document', () => {
    const parsed = parseWritePolicy({});
    expect(parsed.ok && parsed.value).toEqual({
      rules: [],
      fallback: 'accept',
      externalSchemes: ['http', 'https', 'web', 'doc', 'document', 'file', 'external'],
      sensitivityFloors: [],
      consentRequiredAt: null,
      overClaim: 'refuse',
      candidateExpiry: 30 * 86_400,
    });
  });

  it('is shown as it is set: describe then parse gives the same policy', () => {
    const shown = describeWritePolicy(DEFAULT_WRITE_POLICY.policy);
    expect(shown.candidateExpiry).toBe('P30D');
    expect(JSON.stringify(shown)).toContain('"ttl":"P1D"');
    const again = parseWritePolicy(JSON.parse(JSON.stringify(shown)));
    expect(again.ok && again.value).toEqual(DEFAULT_WRITE_POLICY.policy);
  });

  it('takes the default document with the seed 004 rule added', () => {
    const parsed = parseWritePolicy({
      ...DEFAULT_POLICY_DOCUMENT,
      rules: [...DEFAULT_POLICY_DOCUMENT.rules, PERSONAL_IDENTIFIERS_REFUSED_RULE],
    });
    expect(parsed.ok && parsed.value.rules.at(-1)?.id).toBe('personal-identifiers-refused');
  });

  it.each([
    [{ rules: [rule({ then: { decision: 'accept_with_ttl' } })] }, 'policy.rules.0.then.ttl', 'must be a string such as "P30D"'],
    [{ rules: [rule({ then: { decision: 'accept_with_ttl', ttl: 'P1M' } })] }, 'policy.rules.0.then.ttl', 'must be an ISO 8601 duration'],
    [{ rules: [rule({ then: { decision: 'accept_with_ttl', ttl: 'PT0S' } })] }, 'policy.rules.0.then.ttl', 'must be longer than zero'],
    [{ rules: [rule({ then: { decision: 'maybe' } })] }, 'policy.rules.0.then.decision', 'must be {"decision"'],
    [{ rules: [rule({ when: { detections: ['secret:aws'] } })] }, 'policy.rules.0.when.detections.0', 'must be a detection kind'],
    [{ rules: [rule({ when: { kinds: [] } })] }, 'policy.rules.0.when.kinds', 'must not be empty'],
    [{ rules: [rule({ when: { kinds: ['memo'] } })] }, 'policy.rules.0.when.kinds.0', 'must be one of'],
    [{ rules: [rule({ when: { keys: ['security*'] } })] }, 'policy.rules.0.when.keys.0', 'must be a memory key'],
    [{ rules: [rule({ when: { colour: 'red' } })] }, 'policy.rules.0.when.colour', 'is not a known field'],
    [{ rules: [rule({ id: 'floor.secret' })] }, 'policy.rules.0.id', 'is reserved'],
    [{ rules: [rule({ id: 'fallback' })] }, 'policy.rules.0.id', 'is reserved'],
    [{ rules: [rule(), rule()] }, 'policy.rules.1.id', 'repeats the rule id r1'],
    [{ externalSchemes: ['HTTPS'] }, 'policy.externalSchemes.0', 'must be a URI scheme'],
    [{ consentRequiredAt: 'secret' }, 'policy.consentRequiredAt', 'must be one of'],
    [{ overClaim: 'ignore' }, 'policy.overClaim', 'must be refuse or lower'],
    [[], 'policy', 'must be a JSON object'],
  ])('refuses %j, naming %s', (input, field, reason) => {
    const error = errorOf(input);
    expect(error.field).toBe(field);
    expect(error.reason).toContain(reason);
  });
});
