// `memledger candidates list|accept|reject` through the real CLI (one test:
// each step is a process): the same commands as the HTTP routes, refusals
// as exit 3 with the answer table's codes, a bad --status as exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase('candidates_cli');
  env = cliEnvironment(db.url);
});
afterAll(async () => {
  await db?.drop();
});

const subject = ['--tenant', 'acme', '--subject', 'u-cli-review'];
const permission = (key: string) =>
  JSON.stringify({ kind: 'permission', key, value: { type: 'text', text: 'allowed' }, source: { type: 'model_inference', refs: [] } });

async function cli(args: string[], code = 0): Promise<any> {
  const run = await runCli(args, env);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code);
  return code === 0 ? JSON.parse(run.stdout) : JSON.parse(run.stderr);
}

describe('memledger candidates', () => {
  it('lists, accepts (the normal write decision) and rejects candidates; refusals exit 3, a bad status exits 2', async () => {
    const first = await cli(['record', ...subject, '--entry', permission('billing.refunds')]);
    const second = await cli(['record', ...subject, '--entry', permission('billing.deletes')]);
    expect([first.decision, second.decision]).toEqual(['CANDIDATE', 'CANDIDATE']);

    const pending = await cli(['candidates', 'list', ...subject]);
    expect(pending.map((c: { memoryId: string }) => c.memoryId)).toEqual([first.memoryId, second.memoryId]);
    expect(pending[0]).toMatchObject({ status: 'pending', key: 'billing.refunds', gate: { ruleId: 'security-change-review' } });

    const accepted = await cli(['candidates', 'accept', ...subject, '--memory', first.memoryId]);
    expect(accepted).toMatchObject({ decision: 'NEW', memoryId: first.memoryId, sequence: 1 });
    expect(await cli(['candidates', 'accept', ...subject, '--memory', first.memoryId], 3)).toMatchObject({ error: 'proposal_not_pending' });

    const rejected = await cli(['candidates', 'reject', ...subject, '--memory', second.memoryId, '--reason', 'not what the user said']);
    expect(rejected.events).toEqual([{ type: 'ProposalRejected', data: expect.objectContaining({ memoryId: second.memoryId }) }]);
    expect(await cli(['candidates', 'reject', ...subject, '--memory', 'm-nothing-here'], 3)).toMatchObject({ error: 'proposal_not_found' });

    const all = await cli(['candidates', 'list', ...subject, '--status', 'all']);
    expect(all.map((c: { status: string }) => c.status)).toEqual(['accepted', 'rejected']);
    expect(await cli(['candidates', 'list', ...subject, '--status', 'maybe'], 2)).toMatchObject({ field: 'status' });
  }, 300_000);
});
