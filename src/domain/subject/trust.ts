// Effective trust of a source now: taint first (a tainted source is
// untrusted whatever its type), then per-ref overrides from TrustChanged
// (the lowest override among the refs wins: one doubtful ref is enough to
// doubt the statement), else the level of its source type.
import { trustRank, type Source, type TrustLevel } from '../entry/source.js';
import type { SubjectState, TaintPolicy } from './state.js';

export function refMatchesPattern(ref: string, pattern: string): boolean {
  return pattern.endsWith('*') ? ref.startsWith(pattern.slice(0, -1)) : ref === pattern;
}

export function isTainted(policy: TaintPolicy, source: Source): boolean {
  if (policy.sourceTypes.includes(source.type)) return true;
  return source.refs.some((ref) => policy.refPatterns.some((pattern) => refMatchesPattern(ref, pattern)));
}

export function effectiveTrust(state: SubjectState, source: Source): TrustLevel {
  if (isTainted(state.taintPolicy, source)) return 'untrusted';
  return overriddenTrust(state.trustOverrides, source);
}

/** The trust of a source under per-ref overrides alone (the lowest override among its refs, else its type's level). */
export function overriddenTrust(overrides: { get(ref: string): TrustLevel | undefined }, source: Source): TrustLevel {
  let lowest: TrustLevel | undefined;
  for (const ref of source.refs) {
    const level = overrides.get(ref);
    if (level !== undefined && (lowest === undefined || trustRank(level) < trustRank(lowest))) lowest = level;
  }
  return lowest ?? source.type;
}
