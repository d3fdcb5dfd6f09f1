// Verifying an erasure: a list of checks, one per read path, each searching
// what its path returns for the erased content (ErasureNeedles) and counting
// what it searched and what it found. The list is open: the write side
// brings the checks it can run on the ledger alone (ledger-checks.ts), the
// read side adds its paths (src/queries/erasure), a service adds its API.
// A check that throws is a failed check, never a passed one.
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import type { Instant } from '../../domain/values/instant.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import type { ErasureNeedles } from './needles.js';

export type ErasureVerification = NonNullable<SubjectEventData<'DeletionReceiptIssued'>['verification']>;
export type CheckResult = ErasureVerification['checks'][number];

/** What was erased, for the checks. */
export interface ErasureTarget {
  readonly ref: SubjectRef;
  readonly scope: SubjectEventData<'DeletionReceiptIssued'>['scope'];
  readonly memoryIds: readonly string[];
  /** Every artifact deriving from the erased entries. */
  readonly artifactIds: readonly string[];
  /** Key ids that must now be destroyed. */
  readonly keyIds: readonly string[];
  readonly needles: ErasureNeedles;
  /** Commit times of the erased entries' MemoryRecorded events: as-of and replay are asked about these moments too. */
  readonly recordedAt: readonly Instant[];
}

export interface ErasureCheck {
  /** The read path, e.g. `recall`, `projection:memory_versions`. */
  readonly path: string;
  run(target: ErasureTarget): Promise<Omit<CheckResult, 'path'>>;
}

/** The moments the time-travel paths (as-of, replay) are asked about: now, and when each erased entry was recorded. */
export function checkedMoments(now: Date, target: ErasureTarget): string[] {
  return [...new Set([now.toISOString(), ...target.recordedAt])].sort();
}

/** The subject's artifacts as the key store knows them, and any the target names. */
export async function subjectArtifactIds(keys: Pick<KeyStore, 'listArtifactKeyIds'>, target: ErasureTarget): Promise<string[]> {
  const listed = await keys.listArtifactKeyIds(target.ref);
  return [...new Set([...listed.map((a) => a.artifactId), ...target.artifactIds])].sort();
}

export function passedOrFailed(searched: number, findings: number, note?: string): Omit<CheckResult, 'path'> {
  return { status: findings === 0 ? 'passed' : 'failed', searched, findings, ...(note ? { note } : {}) };
}

export async function runChecks(checks: readonly ErasureCheck[], target: ErasureTarget, clock: () => Date): Promise<ErasureVerification> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      results.push({ path: check.path, ...(await check.run(target)) });
    } catch (error) {
      const name = error instanceof Error ? error.name : 'error';
      results.push({ path: check.path, status: 'failed', searched: 0, findings: 0, note: `the check could not run (${name})` });
    }
  }
  const ran = results.filter((r) => r.status !== 'skipped');
  const status = ran.length === 0 ? 'not_run' : ran.some((r) => r.status === 'failed') ? 'failed' : 'passed';
  const searchedFor: ErasureVerification['searchedFor'] = [
    ...(target.needles.plaintextKnown ? (['plaintext'] as const) : []),
    'keyed_hash',
    'sha256',
  ];
  return { status, searchedFor, checks: results, verifiedAt: clock().toISOString() };
}
