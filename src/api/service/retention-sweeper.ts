// The retention sweeper of the service: every tenant that has retention
// rules, one subject after another (src/commands/forgetting/retention-sweep.ts):
// what is due is archived (MemoryExpired), what stayed archived long enough
// is erased with the read side's checks and a receipt. Safe in several
// processes at once: every decision is fenced by its stream's revision.
import { setTimeout as pause } from 'node:timers/promises';
import type { Ledger } from '../../commands/ledger.js';
import { sweepTenant, type SubjectSweep } from '../../commands/forgetting/retention-sweep.js';
import type { RetentionPolicies } from '../../infrastructure/retention/postgres-retention-policies.js';
import type { ErasureCheck } from '../../reads/erasure/verification.js';

/** `checks`: the read paths each erasure is verified against (the read side's and the HTTP API's). */
export async function sweepRetentionOnce(
  ledger: Ledger,
  checks: readonly ErasureCheck[],
  readYourWrites: () => Promise<void>,
  policies: RetentionPolicies,
): Promise<SubjectSweep[]> {
  const swept: SubjectSweep[] = [];
  for (const tenant of await policies.tenants()) {
    swept.push(...(await sweepTenant(ledger, policies, tenant, undefined, { checks, beforeVerify: readYourWrites })));
  }
  return swept;
}

export async function runRetentionSweeper(
  ledger: Ledger,
  checks: readonly ErasureCheck[],
  readYourWrites: () => Promise<void>,
  policies: RetentionPolicies,
  options: { readonly intervalMs: number; readonly signal: AbortSignal; readonly report: (swept: SubjectSweep[]) => void },
): Promise<void> {
  while (!options.signal.aborted) {
    const swept = await sweepRetentionOnce(ledger, checks, readYourWrites, policies);
    if (swept.length > 0) options.report(swept);
    // Resolves at once when the signal is (or already was) aborted.
    await pause(options.intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
