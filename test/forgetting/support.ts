// Shared set-up of the forgetting tests: a ledger and its read side (with the
// tokenizer, which recall needs) on a fresh database of the run's server,
// consolidation services, and the erasure options a CLI would pass (read-side
// checks, projections caught up first).
import { randomBytes } from 'node:crypto';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { shadowTenantsFrom, type ConsolidationServices } from '../../src/commands/consolidation/services.js';
import type { ErasureOptions } from '../../src/commands/forget.js';
import type { CommandContext } from '../../src/commands/ledger.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { deterministicSummarizer } from '../../src/infrastructure/summarizer/deterministic.js';
import { loadTokenCounter } from '../../src/infrastructure/summarizer/tokenizer.js';
import { readSideErasureChecks } from '../../src/queries/erasure/index.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../../src/queries/read-side.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Result } from '../../src/domain/result/result.js';

export interface World {
  readonly ledger: OpenLedger;
  readonly read: OpenReadSide;
  readonly services: ConsolidationServices;
  readonly env: Record<string, string>;
  readonly databaseUrl: string;
  /** The ledger's clock (ms), moved by the test. */
  readonly clock: { now: number };
  catchUp(context: CommandContext): Promise<void>;
  /** What the CLI passes to an erasure: the read side's checks, after catching the projections up. */
  erasure(context: CommandContext): Omit<ErasureOptions, 'reason'>;
  close(): Promise<void>;
}

/** On `url` when given (a server the test started), else on a fresh database of the run's server; `extraEnv` e.g. configures model endpoints. */
export async function openWorld(prefix: string, url?: string, start = Date.now(), extraEnv: Record<string, string> = {}): Promise<World> {
  const database: TestDatabase | undefined = url ? undefined : await createTestDatabase(prefix);
  const databaseUrl = url ?? database!.url;
  const env = {
    MEMLEDGER_EVENTSTORE_URL: databaseUrl,
    MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
    NO_COLOR: '1',
    ...extraEnv,
  };
  const clock = { now: start };
  const ledger = await openLedger({ env, clock: () => new Date(clock.now) });
  const read = await openReadSide(ledger, { tokenizer: true });
  const services: ConsolidationServices = {
    summarizer: deterministicSummarizer(),
    countTokens: await loadTokenCounter(),
    tokenBudget: 4000,
    shadowMode: shadowTenantsFrom(undefined),
  };
  const catchUp = async (c: CommandContext) => void (await catchUpWith(read, [subjectStreamName(c.tenant, c.subject)]));
  return {
    ledger,
    read,
    services,
    env,
    databaseUrl,
    clock,
    catchUp,
    erasure: (c) => ({
      checks: readSideErasureChecks(read),
      beforeVerify: async (stream) => void (await catchUpWith(read, [subjectStreamName(c.tenant, c.subject), stream])),
    }),
    async close() {
      await read.close();
      await ledger.close();
      await database?.drop();
    },
  };
}

export function ok<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw new Error(`refused: ${outcome.rejection.code}: ${outcome.rejection.message}`);
  return outcome.result;
}

export const text = (t: string) => ({ type: 'text', text: t });

export function fact(key: string, value: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'profile', key, value: text(value), source: { type: 'user_assertion', refs: [`msg://${key}`] }, ...extra };
}

/** The memory ids an artifact's manifest lists as inputs, and its parent. */
export async function manifestOf(world: Pick<World, 'ledger'>, artifactId: string) {
  const record = await readArtifact(world.ledger.eventStore, artifactId);
  if (!record.generated) throw new Error(`artifact ${artifactId} has no output`);
  return {
    inputs: record.generated.manifest.inputs.map((i) => i.memoryId),
    parent: record.generated.manifest.parentArtifactId,
    outputKeyId: record.generated.output.keyId,
  };
}
