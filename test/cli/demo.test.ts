// `memledger demo` end to end in a child process, on its own database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('demo');
});
afterAll(async () => {
  await db?.drop();
});

it('records, consolidates, falls back to raw after a retraction, re-consolidates, answers as of an earlier time, erases and shows the lineage', async () => {
  const run = await runCli(['demo'], cliEnvironment(db.url));
  expect(run.code, run.stderr).toBe(0);
  const report = run.stdout;
  expect(report.match(/gate passed, switched/g)?.length).toBe(2);
  expect(report).toMatch(/delivery\.city\s+CONFLICTS/);
  expect(report).toMatch(/recall now answers from: raw \(behind_epoch\)/);
  expect(report).toMatch(/recall answers from: summary \(summary_current\)/);
  expect(report).toMatch(/UNRESOLVED CONFLICT/);
  // The summary reads as a person would write it, and keeps what lives in the words (issue 15).
  const served = report.slice(report.indexOf('4. Re-consolidation'), report.indexOf('5. What did'));
  expect(served).toContain('claim: [summary · 1 source] contact.phone_calls: no — Never phone me.');
  expect(served).toContain('claim: [summary · 1 source] Prefers SMS for logistics updates; never phone calls.');
  expect(served).toContain('claim: [summary · 1 source] Refunds wait at most 72 hours for approval.');
  expect(report).not.toContain('NOT yes');
  // As of before the switch to SMS, the system believed email.
  expect(report).toMatch(/notification\.preference = \{"status":"readable","value":\{"type":"text","text":"email"\}/);
  expect(report).toMatch(/recall after erasure mentions the number: no/);
  expect(report).toMatch(/STALE \(MemoryForgotten\)/);
  // After the erasure, the number appears only in lines printed before it.
  const afterErasure = report.slice(report.indexOf('6. The customer asks to erase'));
  expect(afterErasure).not.toContain('5550 1234');
}, 300_000);
