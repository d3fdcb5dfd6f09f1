// `memledger demo`: the scripted history, end to end on the configured store
// (the embedded one by default), under a fresh tenant so runs never mix:
// record, consolidate, supersede, retract, re-consolidate, ask as of an
// earlier time, erase, and a short readable report with the lineage.
import { randomBytes } from 'node:crypto';
import { runConsolidation } from '../commands/consolidation/run.js';
import type { ConsolidationServices } from '../commands/consolidation/services.js';
import { forgetMemory } from '../commands/forget.js';
import type { CommandContext } from '../commands/ledger.js';
import { retractMemory } from '../commands/lifecycle.js';
import { recordMemory, supersedeMemory, type RecordResult } from '../commands/record.js';
import type { Result } from '../domain/result/result.js';
import { asOf, catchUpWith, lineage, recall, type OpenReadSide, type RecallItem } from '../queries/index.js';
import type { OpenLedger } from '../runtime/open-ledger.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import { DEMO_SUBJECT, FIRST_ENTRIES, SMS_PREFERENCE } from './script.js';

export interface DemoDeps {
  readonly ledger: OpenLedger;
  readonly read: OpenReadSide;
  readonly services: ConsolidationServices;
  readonly print: (line: string) => void;
}

function must<R>(outcome: Result<R>, what: string): R {
  if (!outcome.ok) throw new Error(`${what}: ${outcome.rejection.code}: ${outcome.rejection.message}`);
  return outcome.result;
}

export async function runDemo({ ledger, read, services, print }: DemoDeps): Promise<{ tenant: string; subject: string }> {
  const tenant = `demo-${randomBytes(3).toString('hex')}`;
  const context: CommandContext = { tenant, subject: DEMO_SUBJECT, actor: 'demo' };
  // Up to the subject's last event, not only to what the global log shows now (a commit still in flight elsewhere hides later ones).
  const caughtUp = () => catchUpWith(read, [subjectStreamName(tenant, DEMO_SUBJECT)]);
  print(`memledger demo — tenant ${tenant}, subject ${DEMO_SUBJECT}`);
  print('');
  print('1. The agent records what it learns');
  const ids: Record<string, RecordResult> = {};
  for (const [name, entry] of Object.entries(FIRST_ENTRIES)) {
    const r = must(await recordMemory(ledger, context, entry), `record ${name}`);
    ids[name] = r;
    print(`   ${entry.key.padEnd(28)} ${r.decision.padEnd(10)} ${r.memoryId}${r.conflictId ? `  conflict ${r.conflictId}` : ''}`);
  }
  const beforeSms = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));

  print('');
  print('2. First consolidation (loss gate, then a fenced alias switch)');
  const first = await consolidate(services, ledger, context, print);

  print('');
  print('3. The customer switches to SMS; the courier fact turns out wrong');
  const sms = must(await supersedeMemory(ledger, context, ids.emailPreference!.memoryId, SMS_PREFERENCE), 'supersede');
  print(`   notification.preference     SUPERSEDES ${ids.emailPreference!.memoryId} -> ${sms.memoryId}`);
  must(await retractMemory(ledger, context, ids.shippedFact!.memoryId, 'courier API reported the wrong order'), 'retract');
  print(`   order.shipment              RETRACTED  ${ids.shippedFact!.memoryId}`);
  await caughtUp();
  const fallback = await recall(read, { tenant, subject: DEMO_SUBJECT });
  print(`   recall now answers from: ${fallback.source} (${fallback.reason}) — ${fallback.message}`);

  print('');
  print('4. Re-consolidation from the still-valid inputs');
  const second = await consolidate(services, ledger, context, print);
  await caughtUp();
  const current = await recall(read, { tenant, subject: DEMO_SUBJECT, budget: 2000 });
  print(`   recall answers from: ${current.source} (${current.reason}), ${current.items.length} items, ${current.budget.used} tokens`);
  for (const item of current.items.slice(0, 12)) print(`     - ${describeItem(item)}`);

  print('');
  print(`5. What did the system believe before the switch to SMS (as of ${beforeSms})?`);
  const then = await asOf(read, { tenant, subject: DEMO_SUBJECT, systemTime: beforeSms, validTime: beforeSms });
  for (const b of then.beliefs.filter((x) => x.key === 'notification.preference')) {
    print(`   notification.preference = ${JSON.stringify(b.personal)}  (recorded ${b.recordedAt})`);
  }

  print('');
  print('6. The customer asks to erase the phone number');
  const receipt = must(await forgetMemory(ledger, context, ids.phone!.memoryId, 'customer request'), 'forget');
  print(
    `   receipt ${receipt.receiptId}: memories ${receipt.memoryIds.join(', ')}; keys destroyed ${receipt.destroyedKeyIds.length}; artifacts invalidated ${receipt.invalidatedArtifactIds.length}`,
  );
  await caughtUp();
  const afterErase = await recall(read, { tenant, subject: DEMO_SUBJECT });
  const leaked = JSON.stringify(afterErase).includes(FIRST_ENTRIES.phone.value.text);
  print(`   recall after erasure mentions the number: ${leaked ? 'YES (bug)' : 'no'}`);

  print('');
  print('7. Lineage of the current summary');
  const artifactId = second ?? first;
  if (artifactId) {
    const graph = await lineage(read, tenant, artifactId);
    for (const a of graph.artifacts) {
      print(
        `   ${a.artifactId}  covers through ${a.newCoversThrough}, epoch ${a.inputEpoch}, parent ${a.parentArtifactId ?? '—'}${a.stale ? `  STALE (${a.stale.causeType})` : ''}`,
      );
      for (const input of a.inputs.slice(0, 10)) print(`     <- ${input.memoryId} v${input.version} (now ${input.statusNow ?? 'unknown'})`);
    }
  }
  return { tenant, subject: DEMO_SUBJECT };
}

async function consolidate(
  services: ConsolidationServices,
  ledger: OpenLedger,
  context: CommandContext,
  print: (line: string) => void,
): Promise<string | undefined> {
  const outcome = await runConsolidation(ledger, services, context);
  if (!outcome.ok) {
    print(`   refused: ${outcome.rejection.code}: ${outcome.rejection.message}`);
    return undefined;
  }
  const r = outcome.result;
  if (r.status === 'up_to_date') {
    print(`   already up to date: ${r.alias.artifactId}`);
    return r.alias.artifactId;
  }
  if (r.status === 'gate_failed' || r.status === 'generation_failed') {
    print(`   ${r.status}: ${r.prepare.artifactId}`);
    return undefined;
  }
  print(`   ${r.prepare.artifactId}: gate passed, ${r.publish.status}${r.publish.status === 'rejected' ? ` (${r.publish.reason})` : ''}`);
  return r.publish.status === 'switched' ? r.publish.artifactId : undefined;
}

function describeItem(item: RecallItem): string {
  const text = item.text.replace(/\s+/g, ' ');
  return `${item.type}: ${text.length > 110 ? `${text.slice(0, 107)}...` : text}`;
}
