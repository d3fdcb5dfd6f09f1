// Shared by the write-gate tests: credentials, the strict tenant policy of
// the corpus, and a corpus row run through detectors and policy.
import { requireEntry } from '../../src/domain/entry/entry.js';
import type { SourceType } from '../../src/domain/entry/source.js';
import type { WriterCredential } from '../../src/domain/policy/credential-trust.js';
import {
  DEFAULT_POLICY_DOCUMENT,
  DEFAULT_WRITE_POLICY,
  PERSONAL_IDENTIFIERS_REFUSED_RULE,
} from '../../src/domain/policy/default-policy.js';
import { evaluateWrite } from '../../src/domain/policy/evaluate.js';
import { parseWritePolicy, type VersionedWritePolicy } from '../../src/domain/policy/policy-document.js';
import type { GateVerdict } from '../../src/domain/policy/verdict.js';
import { writeMarksSchema } from '../../src/domain/policy/write-marks.js';
import type { WriteRow } from './corpus/write-row.js';

/** The key a writer of that source type would hold: a reviewer's, the user's channel, or an agent's. */
export function credentialFor(ceiling: SourceType): WriterCredential {
  if (ceiling === 'human_review') return { role: 'reviewer', userChannel: false, ceiling };
  if (ceiling === 'user_assertion') return { role: 'writer', userChannel: true, ceiling };
  return { role: 'writer', userChannel: false, ceiling };
}

export function policyOf(document: unknown, version = 1): VersionedWritePolicy {
  const parsed = parseWritePolicy(document);
  if (!parsed.ok) throw parsed.error;
  return { version, policy: parsed.value };
}

/** Seed 004 8.3's tenant: ID numbers, phones and addresses refused; consent required from `personal`. */
export const STRICT_POLICY = policyOf({
  ...DEFAULT_POLICY_DOCUMENT,
  rules: [...DEFAULT_POLICY_DOCUMENT.rules, PERSONAL_IDENTIFIERS_REFUSED_RULE],
  consentRequiredAt: 'personal',
});

export function verdictOf(row: WriteRow): GateVerdict {
  const entry = requireEntry(row.entry);
  const ceiling = (row.ceiling ?? entry.source.type) as SourceType;
  return evaluateWrite(
    { entry, credential: credentialFor(ceiling), marks: writeMarksSchema.parse(row.marks) },
    row.policy === 'strict' ? STRICT_POLICY : DEFAULT_WRITE_POLICY,
  );
}
