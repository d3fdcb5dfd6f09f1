// A tenant's retention policy (seed 001 sections 5 and F): rules that give
// memory entries a default TTL by kind and sensitivity, and say how long an
// expired entry is kept archived — out of every context (recall never returns
// it) but readable for audit (as-of, replay, events) — before it is erased
// (crypto-shredded). Archive and erasure differ: an archived entry can still
// be read by an auditor; an erased one can be read by nobody.
//
// Which rule applies: the most specific that matches (kind and sensitivity,
// then one of them, then neither, '*' matching any). When a kind-only and a
// sensitivity-only rule both match, the stricter wins (shorter TTL, then
// shorter archive), since neither is more specific.
import { z } from 'zod';
import { MEMORY_KINDS, SENSITIVITIES, type MemoryKind, type Sensitivity } from '../entry/vocabulary.js';
import { InvalidInput, parseWith, type Parsed } from '../validation/invalid-input.js';
import { durationSchema, formatDuration } from './duration.js';

export const ANY = '*';

export interface RetentionRule {
  readonly kind: MemoryKind | typeof ANY;
  readonly sensitivity: Sensitivity | typeof ANY;
  /** Seconds an entry stays active after it was recorded; null: this rule gives no TTL (an explicit expiresAt still applies). */
  readonly ttlSeconds: number | null;
  /** Seconds an expired entry stays archived before it is erased; null: kept archived. 0: erased as it expires. */
  readonly archiveSeconds: number | null;
}

/** A rule as a client writes it: durations in ISO 8601. */
export const retentionRuleInputSchema = z.strictObject({
  kind: z.enum([...MEMORY_KINDS, ANY], { error: `must be one of ${MEMORY_KINDS.join(', ')} or *` }).default(ANY),
  sensitivity: z.enum([...SENSITIVITIES, ANY], { error: `must be one of ${SENSITIVITIES.join(', ')} or *` }).default(ANY),
  ttl: durationSchema.nullable().default(null),
  archiveFor: durationSchema.nullable().default(null),
});

export function parseRetentionRule(input: unknown): Parsed<RetentionRule> {
  const parsed = parseWith(retentionRuleInputSchema, input, 'rule');
  if (!parsed.ok) return parsed;
  const { kind, sensitivity, ttl, archiveFor } = parsed.value;
  if (ttl === 0) return { ok: false, error: new InvalidInput('rule.ttl', 'must be longer than zero') };
  return { ok: true, value: { kind, sensitivity, ttlSeconds: ttl, archiveSeconds: archiveFor } };
}

/** A rule as the CLI and the API show it. */
export function describeRule(rule: RetentionRule): { kind: string; sensitivity: string; ttl: string | null; archiveFor: string | null } {
  return {
    kind: rule.kind,
    sensitivity: rule.sensitivity,
    ttl: rule.ttlSeconds === null ? null : formatDuration(rule.ttlSeconds),
    archiveFor: rule.archiveSeconds === null ? null : formatDuration(rule.archiveSeconds),
  };
}

function specificity(rule: RetentionRule): number {
  return (rule.kind === ANY ? 0 : 1) + (rule.sensitivity === ANY ? 0 : 1);
}

/** Shorter is stricter; none is the least strict. */
function strictness(seconds: number | null): number {
  return seconds === null ? Number.POSITIVE_INFINITY : seconds;
}

export function ruleFor(rules: readonly RetentionRule[], kind: MemoryKind, sensitivity: Sensitivity): RetentionRule | undefined {
  const matching = rules.filter((r) => (r.kind === ANY || r.kind === kind) && (r.sensitivity === ANY || r.sensitivity === sensitivity));
  if (matching.length === 0) return undefined;
  const best = Math.max(...matching.map(specificity));
  return matching
    .filter((r) => specificity(r) === best)
    .sort((a, b) => strictness(a.ttlSeconds) - strictness(b.ttlSeconds) || strictness(a.archiveSeconds) - strictness(b.archiveSeconds))[0];
}
