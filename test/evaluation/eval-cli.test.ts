// `memledger eval` as a user runs it (one process): a case that names as
// invalidated a memory its history leaves active — recall serves it, so the
// run is a blocking regression: the JSON report on stdout, the refusal on
// stderr, exit 3.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('evaluation_cli');
});
afterAll(async () => database?.drop());

const said = (text: string, ref: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  content: text,
  source: { type: 'user_assertion', refs: [ref] },
});

describe('memledger eval', () => {
  it('exits 3 with the report on stdout when a stale memory is served', async () => {
    const stale = {
      case_id: 'stale-let-through',
      lang: 'en',
      scenario: 'preference_change',
      // The supersession the case claims never happened: mem_v1 stays active and recall serves it.
      history_events: [{ op: 'record', memory_id: 'mem_v1', entry: said('Send me notifications by email.', 'msg://t/1') }],
      current_task: 'Notify the user by email about the delivery',
      expected_invalidated_memory_ids: ['mem_v1'],
    };
    const dir = mkdtempSync(join(tmpdir(), 'memledger-eval-'));
    const file = join(dir, 'cases.jsonl');
    writeFileSync(file, `${JSON.stringify(stale)}\n`);
    const run = await runCli(['eval', '--cases', file, '--condition', 'D', '--k', '3'], cliEnvironment(database.url));
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout) as {
      k: number;
      blocking: boolean;
      conditions: Array<{ condition: string; metrics: Record<string, unknown>; regressions: unknown[] }>;
    };
    expect(report).toMatchObject({ k: 3, blocking: true });
    expect(report.conditions).toHaveLength(1);
    expect(report.conditions[0]).toMatchObject({
      condition: 'D',
      metrics: { cases: 1, staleMemoryRate: 1, staleServed: 1 },
      regressions: [{ caseId: 'stale-let-through', stale: ['mem_v1'], unauthorized: [] }],
    });
    expect(JSON.parse(run.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: 'evaluation_blocked', conditions: ['D'] });
  });
});
