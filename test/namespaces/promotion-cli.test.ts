// Promotion on the command line (issue 19): `memledger promote` proposes,
// `memledger candidates accept` on the team approves, and `memledger recall
// --shared` (repeatable) serves the user's own memories with the team's, each
// naming its namespace, the promoted one with its lineage. A bad flag is
// named, exits 2 and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { runCli } from '../support/cli.js';
import { fact, ok, openWorld, type World } from '../forgetting/support.js';

let world: World;
beforeAll(async () => {
  world = await openWorld('promotion_cli');
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const cli = async (args: string[]) => runCli(args, world.env);
const json = async (args: string[]) => {
  const run = await cli(args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};

describe('memledger promote and recall --shared', () => {
  it('promotes through a reviewer, and recall --shared serves the team copy with its lineage', async () => {
    const user = { tenant: 'acme', subject: 'user:u-7' };
    const source = ok(await recordMemory(world.ledger, user, fact('editor.theme', 'solarized dark')));
    ok(await recordMemory(world.ledger, { tenant: 'acme', subject: 'project:p-1' }, fact('project.language', 'typescript')));
    // The log shows a commit once no earlier transaction is in flight: count what it holds after both writes.
    const logLength = async () => {
      await world.ledger.eventStore.awaitCommitted();
      return (await world.ledger.eventStore.readAll()).length;
    };
    const events = await logLength();
    const promote = (to: string, reason: string) => [
      'promote',
      '--tenant',
      'acme',
      '--subject',
      'user:u-7',
      '--memory',
      source.memoryId,
      '--to',
      to,
      '--reason',
      reason,
    ];
    const bad = await cli(promote('user:u-8', 'x'));
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'to' });
    expect(await logLength()).toBe(events);

    const promoted = await json(promote('team:t-1', 'team default'));
    expect(promoted).toMatchObject({ decision: 'CANDIDATE', to: 'team:t-1' });
    const shared = ['recall', '--tenant', 'acme', '--subject', 'user:u-7', '--shared', 'team:t-1', '--shared', 'project:p-1'];
    const before = (await json(shared)).items as Array<{ namespace: string; memoryId?: string }>;
    expect(before.filter((i) => i.namespace === 'team:t-1')).toEqual([]);

    await json(['candidates', 'accept', '--tenant', 'acme', '--subject', 'team:t-1', '--memory', promoted.memoryId as string]);
    const after = (await json(shared)).items as Array<{ namespace: string; text: string; provenance: Record<string, unknown> }>;
    expect(after.map((i) => i.namespace).sort()).toEqual(['project:p-1', 'team:t-1', 'user:u-7']);
    const copy = after.find((i) => i.namespace === 'team:t-1')!;
    expect(copy.text).toContain('solarized dark');
    expect(copy.provenance.promotedFrom).toEqual({ subject: 'user:u-7', memoryId: source.memoryId, sequence: source.sequence });
  }, 120_000);
});
