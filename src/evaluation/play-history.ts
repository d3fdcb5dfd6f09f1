// Plays a case's history into fresh tenants of the ledger through the same
// commands a client calls (record, supersede, retract, forget), and keeps
// the map from the case's memory ids to the ledger's.
import type { CommandContext, Ledger } from '../commands/ledger.js';
import { forgetMemory } from '../commands/forget.js';
import { retractMemory } from '../commands/lifecycle.js';
import { recordMemory, supersedeMemory } from '../commands/record.js';
import { namespaceParts, namespacesOf, type EvalCase } from '../domain/evaluation/case.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { Result } from '../domain/result/result.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { readSideErasureChecks } from '../queries/erasure/index.js';
import { catchUpWith, type OpenReadSide } from '../queries/read-side.js';

export interface Target {
  readonly tenant: string;
  readonly subject: string;
}

export interface PlayedCase {
  readonly home: Target;
  /** Every namespace the case names, in the ledger's tenants. */
  readonly targets: ReadonlyMap<string, Target>;
  /** The case's memory id -> the ledger's. */
  readonly memoryIds: ReadonlyMap<string, string>;
  /** The ledger's memory id -> the case's (a duplicate record corroborates the first: both name it, the first is kept). */
  readonly caseIds: ReadonlyMap<string, string>;
  /** The source refs each case memory was recorded with. */
  readonly sourceRefs: ReadonlyMap<string, readonly string[]>;
}

function unwrap<R>(outcome: Result<R>, caseId: string, index: number): R {
  if (outcome.ok) return outcome.result;
  const { code, message } = outcome.rejection;
  // The case does not fit this ledger (a bad case file, not a regression).
  throw new InvalidInput(`history_events.${index}`, `of case ${caseId} was refused (${code}: ${message})`);
}

export async function playCase(ledger: Ledger, read: OpenReadSide, c: EvalCase, tenantPrefix: string): Promise<PlayedCase> {
  const owners = namespacesOf(c);
  const targets = new Map<string, Target>();
  for (const ns of new Set([c.namespace, ...owners.values(), ...c.forbidden_namespaces])) {
    const { tenant, subject } = namespaceParts(ns);
    targets.set(ns, { tenant: `${tenantPrefix}.${tenant}`, subject });
  }
  const contextOf = (caseMemoryId: string): CommandContext => ({ ...targets.get(owners.get(caseMemoryId) ?? c.namespace)!, actor: 'eval' });
  const memoryIds = new Map<string, string>();
  const caseIds = new Map<string, string>();
  const sourceRefs = new Map<string, readonly string[]>();
  const remember = (caseId: string, memoryId: string, refs: readonly string[]) => {
    memoryIds.set(caseId, memoryId);
    if (!caseIds.has(memoryId)) caseIds.set(memoryId, caseId);
    sourceRefs.set(caseId, refs);
  };
  for (const [index, e] of c.history_events.entries()) {
    const context = contextOf(e.memory_id);
    switch (e.op) {
      case 'record': {
        const done = unwrap(await recordMemory(ledger, context, e.entry), c.case_id, index);
        remember(e.memory_id, done.memoryId, e.entry.source.refs);
        break;
      }
      case 'supersede': {
        const done = unwrap(await supersedeMemory(ledger, contextOf(e.replaces), memoryIds.get(e.replaces)!, e.entry), c.case_id, index);
        remember(e.memory_id, done.memoryId, e.entry.source.refs);
        break;
      }
      case 'retract':
        unwrap(await retractMemory(ledger, context, memoryIds.get(e.memory_id)!, e.reason), c.case_id, index);
        break;
      case 'forget': {
        const stream = subjectStreamName(context.tenant, context.subject);
        const checks = readSideErasureChecks(read);
        const beforeVerify = () => catchUpWith(read, [stream]).then(() => undefined);
        unwrap(
          await forgetMemory(ledger, context, memoryIds.get(e.memory_id)!, 'evaluation case', { checks, beforeVerify }),
          c.case_id,
          index,
        );
        break;
      }
      default: {
        const never: never = e;
        throw new Error(`unknown history event ${JSON.stringify(never)}`);
      }
    }
  }
  await catchUpWith(
    read,
    [...targets.values()].map((t) => subjectStreamName(t.tenant, t.subject)),
  );
  return { home: targets.get(c.namespace)!, targets, memoryIds, caseIds, sourceRefs };
}
