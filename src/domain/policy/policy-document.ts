// A tenant's write policy document: what `memledger policy set` takes (JSON)
// and `policy show` prints. Rules say, for writes matching all of their
// conditions (kind, source type after the credential bound, origin,
// effective sensitivity, detections, marks, key), what becomes of them:
// accept, candidate (held for review), reject, or accept with a TTL. How
// the rules combine is in evaluate.ts. Versions are given by the store that
// keeps the documents (each `set` is the next version; the built-in default
// is version 0), and every verdict names the version it was decided under.
import { z } from 'zod';
import { sourceTypeSchema } from '../entry/source.js';
import { memoryKindSchema, sensitivitySchema } from '../entry/vocabulary.js';
import { durationSchema, formatDuration } from '../retention/duration.js';
import { parseWith, type Parsed } from '../validation/invalid-input.js';
import { isDetectionPattern } from './detection.js';
import { DEFAULT_EXTERNAL_SCHEMES } from './origin.js';
import { writeMarkSchema } from './write-marks.js';
import { namespacePatternSchema } from '../namespace/pattern.js';

export const GATE_DECISIONS = ['accept', 'accept_with_ttl', 'candidate', 'reject'] as const;
export type GateDecision = (typeof GATE_DECISIONS)[number];

/** Ids the evaluation gives to what is not a rule of the document. */
export const RESERVED_RULE_IDS = {
  secret: 'floor.secret',
  consent: 'floor.consent',
  credential: 'floor.credential',
  fallback: 'fallback',
  /** A promotion into a shared namespace (issue 19): always a candidate for a reviewer. */
  promotion: 'floor.promotion',
} as const;

const list = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item, { error: `must be an array of ${what}` }).min(1, { error: 'must not be empty (leave the condition out to match any)' });

const detectionPatternSchema = z.string({ error: 'must be a string' }).refine(isDetectionPattern, {
  error: 'must be a detection kind (e.g. "personal:phone"), a category ("secret:*", "personal:*", "injection:*") or "*"',
});
const KEY_PATTERN = /^(?:\*|[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)*(?:\.\*)?)$/;
const keyPatternSchema = z
  .string({ error: 'must be a string' })
  .regex(KEY_PATTERN, { error: 'must be a memory key, a key prefix ending in ".*", or "*"' });
const schemeSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z][a-z0-9+.-]{0,31}$/, { error: 'must be a URI scheme in lower case, e.g. "https"' });

export const ruleConditionSchema = z.strictObject(
  {
    kinds: list(memoryKindSchema, 'memory kinds').optional(),
    sourceTypes: list(sourceTypeSchema, 'source types').optional(),
    origin: z.enum(['internal', 'external'], { error: 'must be internal or external' }).optional(),
    sensitivityAtLeast: sensitivitySchema.optional(),
    detections: list(detectionPatternSchema, 'detection patterns').optional(),
    marks: list(writeMarkSchema, 'marks').optional(),
    keys: list(keyPatternSchema, 'key patterns').optional(),
    /** Namespace patterns of the subject written to (issue 19), e.g. `team:*`. */
    namespaces: list(namespacePatternSchema, 'namespace patterns').optional(),
  },
  { error: 'must be an object of conditions' },
);

const positiveDuration = durationSchema.refine((seconds) => seconds > 0, { error: 'must be longer than zero' });

export const ruleOutcomeSchema = z.discriminatedUnion(
  'decision',
  [
    z.strictObject({ decision: z.literal('accept') }),
    z.strictObject({ decision: z.literal('candidate') }),
    z.strictObject({ decision: z.literal('reject') }),
    z.strictObject({ decision: z.literal('accept_with_ttl'), ttl: positiveDuration }),
  ],
  { error: `must be {"decision": …} with one of ${GATE_DECISIONS.join(', ')} (accept_with_ttl also takes "ttl")` },
);

const ruleIdSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, { error: 'must be 1-64 characters of a-z, 0-9, ".", "_" and "-"' })
  .refine((id) => !id.startsWith('floor.') && id !== RESERVED_RULE_IDS.fallback, { error: 'is reserved ("floor.*", "fallback")' });

export const writeRuleSchema = z.strictObject({
  id: ruleIdSchema,
  description: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
  when: ruleConditionSchema.default({}),
  then: ruleOutcomeSchema,
});

export const sensitivityFloorSchema = z.strictObject({
  detections: list(detectionPatternSchema, 'detection patterns'),
  atLeast: sensitivitySchema,
});

export const writePolicySchema = z
  .strictObject(
    {
      name: z.string({ error: 'must be a string' }).min(1).max(100, { error: 'must be at most 100 characters' }).optional(),
      rules: z
        .array(writeRuleSchema, { error: 'must be an array of rules' })
        .max(200, { error: 'must hold at most 200 rules' })
        .default([]),
      /** What happens to a write no rule matches. */
      fallback: z.enum(['accept', 'candidate', 'reject'], { error: 'must be accept, candidate or reject' }).default('accept'),
      externalSchemes: z
        .array(schemeSchema, { error: 'must be an array of URI schemes' })
        .max(50)
        .default([...DEFAULT_EXTERNAL_SCHEMES]),
      /** Detections that raise the sensitivity further than the built-in floor (personal data: at least personal). */
      sensitivityFloors: z.array(sensitivityFloorSchema, { error: 'must be an array of floors' }).max(50).default([]),
      /** Sensitivity from which an entry must carry a consentRef; null: consent is not required. */
      consentRequiredAt: sensitivitySchema.nullable().default(null),
      /** What to do with a source type above the credential: refuse the write, or lower the type to what the key may claim. */
      overClaim: z.enum(['refuse', 'lower'], { error: 'must be refuse or lower' }).default('refuse'),
      /** How long a candidate waits for a reviewer before it expires. */
      candidateExpiry: positiveDuration.default(30 * 86_400),
    },
    { error: 'must be a JSON object (a write policy document)' },
  )
  .superRefine((policy, ctx) => {
    const seen = new Set<string>();
    policy.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `repeats the rule id ${rule.id}` });
      seen.add(rule.id);
    });
  });

export type WritePolicy = z.output<typeof writePolicySchema>;
export type WriteRule = WritePolicy['rules'][number];
export type RuleCondition = WriteRule['when'];
export type RuleOutcome = WriteRule['then'];

/** A policy as the store keeps it: the document and the version it was given. */
export interface VersionedWritePolicy {
  readonly version: number;
  readonly policy: WritePolicy;
}

/** Validates a policy document; the error names the first offending field (e.g. `rules.2.then.ttl`). */
export function parseWritePolicy(input: unknown): Parsed<WritePolicy> {
  return parseWith(writePolicySchema, input, 'policy');
}

/** The document as `policy show` prints it and `policy set` takes it back: durations in ISO 8601. */
export function describeWritePolicy(policy: WritePolicy): Record<string, unknown> {
  return {
    ...policy,
    rules: policy.rules.map((rule) =>
      rule.then.decision === 'accept_with_ttl'
        ? { ...rule, then: { decision: rule.then.decision, ttl: formatDuration(rule.then.ttl) } }
        : rule,
    ),
    candidateExpiry: formatDuration(policy.candidateExpiry),
  };
}
