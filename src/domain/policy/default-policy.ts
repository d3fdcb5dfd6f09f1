// The built-in write policy (version 0), following seed 001 D ("write
// thresholds"), seed 001 I and issue 17. Beyond these rules, and whatever a
// tenant's document says, the evaluation always refuses secrets, raises
// personal data to at least `personal`, and bounds the source type by the
// credential (evaluate.ts).
import { PERSONAL_IDENTIFIER_KINDS } from './detection.js';
import { parseWritePolicy, type VersionedWritePolicy, type WritePolicy } from './policy-document.js';

const INSTRUCTION_KINDS = ['procedural', 'permission', 'constraint'];
const BELOW_USER = ['verified_tool_fact', 'derived_summary', 'model_inference'];
const ALL_BUT_REVIEW = ['user_assertion', ...BELOW_USER];
const SENSITIVE_CATEGORIES = ['personal:health', 'personal:religion', 'personal:sexuality', 'personal:politics'];

export const DEFAULT_POLICY_DOCUMENT = {
  name: 'memledger-default-2026-12',
  rules: [
    {
      id: 'external-instruction',
      description: 'Seed 001 D: content from outside (web, documents, external tool output) never becomes a behaviour rule.',
      when: { kinds: INSTRUCTION_KINDS, origin: 'external', sourceTypes: ALL_BUT_REVIEW },
      then: { decision: 'reject' },
    },
    {
      id: 'injection-into-instruction',
      description: 'Issue 17: text with injection markers becomes an instruction only through human review.',
      when: { kinds: INSTRUCTION_KINDS, detections: ['injection:*'], sourceTypes: ALL_BUT_REVIEW },
      then: { decision: 'candidate' },
    },
    {
      id: 'injection-from-untrusted-writer',
      description: 'Issue 17: injection markers from anything but the user or a reviewer are held for review.',
      when: { detections: ['injection:*'], sourceTypes: BELOW_USER },
      then: { decision: 'candidate' },
    },
    {
      id: 'security-change-review',
      description: 'Seed 001 D: permission and constraint changes not from the user or a reviewer need review.',
      when: { kinds: ['permission', 'constraint'], sourceTypes: BELOW_USER },
      then: { decision: 'candidate' },
    },
    {
      id: 'security-key-review',
      description: 'Seed 001 D: security, access and compliance keys, whatever the kind, need review unless the user or a reviewer writes.',
      when: {
        keys: ['security.*', 'permission.*', 'permissions.*', 'access.*', 'auth.*', 'compliance.*', 'role.*', 'roles.*'],
        sourceTypes: BELOW_USER,
      },
      then: { decision: 'candidate' },
    },
    {
      id: 'agent-into-shared-namespace',
      description:
        "Issue 19: what an agent or a tool writes into a team's or a project's namespace is a candidate there until a human approves (the user speaking, or a reviewer).",
      when: { namespaces: ['team:*', 'project:*'], sourceTypes: BELOW_USER },
      then: { decision: 'candidate' },
    },
    {
      id: 'sensitive-inference',
      description: 'Seed 001 I: no automatic profiling of health, religion, sexuality or politics.',
      when: { detections: SENSITIVE_CATEGORIES, sourceTypes: ['model_inference'] },
      then: { decision: 'reject' },
    },
    {
      id: 'third-party-identifiers',
      description: "Seed 003: another person's identifiers, as marked by the writer, are held for review.",
      when: { marks: ['third_party'], detections: [...PERSONAL_IDENTIFIER_KINDS] },
      then: { decision: 'candidate' },
    },
    {
      id: 'third-party-detected',
      description: 'Seed 003: an identifier after a relation word ("my colleague\'s number") is held for review.',
      when: { detections: ['personal:third_party'] },
      then: { decision: 'candidate' },
    },
    {
      id: 'transient-short-ttl',
      description: 'Seed 001 D: a one-off or temporary choice, marked so, lives a day.',
      when: { marks: ['transient'] },
      then: { decision: 'accept_with_ttl', ttl: 'P1D' },
    },
    {
      id: 'emotional-short-ttl',
      description: 'Seed 001 D: a one-off emotion or complaint, marked so, lives three days.',
      when: { marks: ['emotional'] },
      then: { decision: 'accept_with_ttl', ttl: 'P3D' },
    },
  ],
  fallback: 'accept',
  sensitivityFloors: [{ detections: SENSITIVE_CATEGORIES, atLeast: 'confidential' }],
  consentRequiredAt: null,
  overClaim: 'refuse',
  candidateExpiry: 'P30D',
};

/**
 * Seed 004 8.3 ("身份证号、手机号、住址一律 SKIP"), as a tenant may add it:
 * never store ID numbers, phone numbers or addresses, whoever writes them.
 */
export const PERSONAL_IDENTIFIERS_REFUSED_RULE = {
  id: 'personal-identifiers-refused',
  description: 'Seed 004 8.3: ID numbers, phone numbers and addresses are never stored.',
  when: { detections: ['personal:cn_national_id', 'personal:phone', 'personal:postal_address'] },
  then: { decision: 'reject' },
};

function parsed(document: unknown): WritePolicy {
  const result = parseWritePolicy(document);
  if (!result.ok) throw new TypeError(`built-in write policy is invalid: ${result.error.message}`);
  return result.value;
}

export const DEFAULT_WRITE_POLICY: VersionedWritePolicy = { version: 0, policy: parsed(DEFAULT_POLICY_DOCUMENT) };
