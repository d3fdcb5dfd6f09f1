// One CLI invocation: open the ledger (joining or starting the embedded
// server), run, close, and turn any error into the CLI's JSON error and exit code.
import type { CommandContext } from '../commands/ledger.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import { openLedger, type OpenLedger } from '../runtime/open-ledger.js';
import { printError, printJson, printNotice, reportError } from './output.js';

export interface SubjectOptions {
  readonly tenant?: string;
  readonly subject?: string;
  readonly idempotencyKey?: string;
}

/** Validates --tenant and --subject (InvalidInput naming them) before anything is opened. */
export function contextOf(options: SubjectOptions): CommandContext {
  const tenant = options.tenant ?? '';
  const subject = options.subject ?? '';
  subjectStreamName(tenant, subject);
  const key = options.idempotencyKey;
  return { tenant, subject, ...(key ? { idempotencyKey: key, givenKey: { value: key, field: 'idempotency-key' } } : {}), actor: 'cli' };
}

export async function run(action: (ledger: () => Promise<OpenLedger>) => Promise<unknown>): Promise<void> {
  let opened: OpenLedger | undefined;
  const ledger = async () => (opened ??= await openLedger({ embedded: { onNotice: printNotice } }));
  try {
    const result = await action(ledger);
    if (result !== undefined) printJson(result);
  } catch (error) {
    const report = reportError(error);
    printError(report);
    process.exitCode = report.exitCode;
  } finally {
    await opened?.close().catch(() => undefined);
  }
}
