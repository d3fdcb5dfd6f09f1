// The candidate expiry sweep (issue 17 item 2): the pending-candidates read
// model finds what is due, the sweep expires it through the subject's
// command, with the time passed in; accepted, rejected and forgotten
// candidates leave the read model; `memledger candidates expire --at` runs
// it once (bad --at: exit 2 naming it, nothing appended); `serve` runs it on
// an interval.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepCandidatesOnce } from '../../src/api/service/candidate-sweeper.js';
import { forgetMemory } from '../../src/commands/forget.js';
import { acceptCandidate, listCandidates, rejectCandidate } from '../../src/commands/policy/candidates.js';
import { WritePolicies } from '../../src/commands/policy/write-policies.js';
import { recordMemory } from '../../src/commands/record.js';
import { DEFAULT_POLICY_DOCUMENT } from '../../src/domain/policy/default-policy.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { candidatesProjection, readActive, type CandidatesDb } from '../../src/projections/index.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../../src/queries/read-side.js';
import { entry, startTestService, type TestService } from '../api/service.js';
import { runCli } from '../support/cli.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { credentialFor } from './gate-fixtures.js';

let t: TestLedger;
let read: OpenReadSide;
const T0 = new Date('2026-11-01T10:00:00.000Z');
let now = T0;

beforeAll(async () => {
  t = await openTestLedger('candidate_expiry', () => now);
  read = await openReadSide(t.ledger, { tokenizer: false });
}, 120_000);
afterAll(async () => {
  await read?.close();
  await t?.close();
});

const AGENT = credentialFor('model_inference');
const permission = (key: string) => ({
  kind: 'permission',
  key,
  value: { type: 'boolean', value: true },
  source: { type: 'model_inference', refs: ['agent://run-1'] },
});
/** Every subject stream written here: the read model is read once it has applied each one's last event (a catch-up to the log's head alone can stop short of them while another transaction on the server holds the log's stable cut back). */
const written = new Set<string>();
const caughtUp = async () => void (await catchUpWith(read, [...written]));
async function propose(subject: string, key: string, tenant = 'acme'): Promise<string> {
  written.add(subjectStreamName(tenant, subject));
  const held = await recordMemory(t.ledger, { tenant, subject, credential: AGENT }, permission(key));
  if (!held.ok || held.result.decision !== 'CANDIDATE') throw new Error(`not held: ${JSON.stringify(held)}`);
  return held.result.memoryId;
}
async function pendingRows(): Promise<string[]> {
  await caughtUp();
  const rows = await readActive<CandidatesDb, Array<{ memory_id: string }>>(read.projections, candidatesProjection.name, (tables) =>
    tables.selectFrom('pending_candidates').select('memory_id').execute(),
  );
  return rows.map((r) => r.memory_id).sort();
}

describe('the candidate expiry sweep', () => {
  it('expires what is due at the time passed in, once, and nothing before', async () => {
    now = T0;
    // A tenant whose candidates wait an hour; acme keeps the default 30 days.
    const set = await new WritePolicies(t.ledger.eventStore, t.ledger.clock).set('hourly', {
      ...DEFAULT_POLICY_DOCUMENT,
      candidateExpiry: 'PT1H',
    });
    expect(set.ok).toBe(true);
    const hourly = await propose('s1', 'deploy.allowed', 'hourly');
    const monthly = await propose('s1', 'deploy.allowed');
    await caughtUp();

    const early = await sweepCandidatesOnce(t.ledger, read.projections, '2026-11-01T10:59:59.000Z');
    expect(early.expired).toEqual([]);
    const afterHour = await sweepCandidatesOnce(t.ledger, read.projections, '2026-11-01T11:00:00.000Z');
    expect(afterHour.expired).toEqual([{ tenant: 'hourly', subject: 's1', memoryIds: [hourly] }]);
    expect(await listCandidates(t.ledger, { tenant: 'hourly', subject: 's1' }, 'all')).toMatchObject([
      { memoryId: hourly, status: 'expired' },
    ]);
    expect(await pendingRows()).toEqual([monthly]);
    // Swept again: nothing is due any more, nothing is appended.
    const again = await sweepCandidatesOnce(t.ledger, read.projections, '2026-11-01T12:00:00.000Z');
    expect(again).toMatchObject({ subjects: 0, expired: [] });

    const afterMonth = await sweepCandidatesOnce(t.ledger, read.projections, '2026-12-01T10:00:00.000Z');
    expect(afterMonth.expired).toEqual([{ tenant: 'acme', subject: 's1', memoryIds: [monthly] }]);
    expect(await pendingRows()).toEqual([]);
    // An expired candidate can no longer be accepted.
    const late = await acceptCandidate(t.ledger, { tenant: 'acme', subject: 's1' }, monthly);
    expect(late.ok).toBe(false);
  });

  it('accepted, rejected and forgotten candidates leave the read model and are never expired', async () => {
    now = T0;
    const accepted = await propose('s2', 'repo.write');
    const rejected = await propose('s2', 'repo.admin');
    const forgotten = await propose('s2', 'repo.delete');
    const waiting = await propose('s3', 'repo.read');
    expect(await pendingRows()).toEqual([accepted, forgotten, rejected, waiting].sort());
    const context = { tenant: 'acme', subject: 's2' };
    expect((await acceptCandidate(t.ledger, context, accepted)).ok).toBe(true);
    expect((await rejectCandidate(t.ledger, context, rejected, 'not wanted')).ok).toBe(true);
    expect((await forgetMemory(t.ledger, context, forgotten)).ok).toBe(true);
    expect(await pendingRows()).toEqual([waiting]);
    const sweep = await sweepCandidatesOnce(t.ledger, read.projections, '2027-01-01T00:00:00.000Z');
    expect(sweep.expired).toEqual([{ tenant: 'acme', subject: 's3', memoryIds: [waiting] }]);
    const statuses = (await listCandidates(t.ledger, context, 'all')).map((c) => [c.memoryId, c.status]);
    expect(statuses.sort()).toEqual(
      [
        [accepted, 'accepted'],
        [rejected, 'rejected'],
        [forgotten, 'forgotten'],
      ].sort(),
    );
  });

  it('memledger candidates expire --at: once from the CLI, every candidate proposed before it; a bad --at is exit 2 naming it', async () => {
    now = T0;
    // A transaction older than the proposal, still running when the sweep starts: the log's stable head stops short of it.
    const older = new pg.Client({ connectionString: t.database.url });
    await older.connect();
    try {
      await older.query('begin');
      await older.query('select pg_current_xact_id()');
      const held = await propose('s4', 'ops.pager');
      const env = t.env;
      const stream = subjectStreamName('acme', 's4');
      const bad = await runCli(['candidates', 'expire', '--at', 'next tuesday'], env);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stderr)).toMatchObject({ field: 'at' });
      expect((await t.ledger.eventStore.readStream(stream)).map((e) => e.type)).toEqual(['MemoryProposed']);
      const sweeping = runCli(['candidates', 'expire', '--at', '2027-06-01T00:00:00Z'], env);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await older.query('commit');
      const swept = await sweeping;
      expect(swept.code, swept.stderr).toBe(0);
      expect(JSON.parse(swept.stdout)).toMatchObject({ expired: [{ tenant: 'acme', subject: 's4', memoryIds: [held] }] });
      expect((await t.ledger.eventStore.readStream(stream)).map((e) => e.type)).toEqual(['MemoryProposed', 'ProposalExpired']);
    } finally {
      await older.end();
    }
  }, 60_000);
});

describe('the candidate sweeper of serve', () => {
  let s: TestService;
  beforeAll(async () => {
    s = await startTestService('candidate_sweeper', { config: { sweepIntervalMs: 100 } });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('expires a candidate on its own once its expiry has passed', async () => {
    const admin = await s.key('acme', 'admin');
    const shown = await s.request('GET', '/v1/policy', { key: admin });
    const policy = (shown.body as { policy: Record<string, unknown> }).policy;
    expect((await s.request('POST', '/v1/policy', { key: admin, body: { ...policy, candidateExpiry: 'PT1S' } })).status).toBe(200);
    const held = await s.request('POST', '/v1/subjects/u-exp/memories', {
      key: admin,
      body: entry('allowed', { kind: 'permission', key: 'deploy.allowed', source: { type: 'model_inference', refs: [] } }),
    });
    expect(held.status).toBe(202);
    const deadline = Date.now() + 20_000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const listed = await s.request('GET', '/v1/subjects/u-exp/candidates?status=all', { key: admin });
      status = (listed.body as Array<{ status: string }>)[0]?.status ?? 'missing';
    }
    expect(status).toBe('expired');
    expect(s.logLines().some((line) => line.includes('candidate sweep'))).toBe(true);
  }, 60_000);
});
