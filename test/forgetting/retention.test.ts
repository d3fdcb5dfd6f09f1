// Retention: a tenant's rules give default TTLs by kind and sensitivity; the
// sweeper archives (MemoryExpired: never recalled, still there for audit)
// what is due, and erases (crypto-shredding, receipt scope `retention`) what
// stayed archived for the rule's archive period. Archive is not erasure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepSubject } from '../../src/commands/forgetting/retention-sweep.js';
import { recordMemory } from '../../src/commands/record.js';
import { formatDuration, parseDuration } from '../../src/domain/retention/duration.js';
import { planRetention } from '../../src/domain/retention/plan.js';
import { parseRetentionRule, ruleFor, type RetentionRule } from '../../src/domain/retention/policy.js';
import { PostgresRetentionPolicies } from '../../src/infrastructure/retention/postgres-retention-policies.js';
import { asOf } from '../../src/queries/as-of.js';
import { recall } from '../../src/queries/recall/recall.js';
import { replay } from '../../src/queries/replay/replay.js';
import { readSubjectEvents } from '../../src/queries/subject-events.js';
import { runCli } from '../support/cli.js';
import { fact, ok, openWorld, type World } from './support.js';

const DAY = 86_400_000;
const rule = (
  kind: RetentionRule['kind'],
  sensitivity: RetentionRule['sensitivity'],
  ttlDays: number | null,
  archiveDays: number | null,
): RetentionRule => ({
  kind,
  sensitivity,
  ttlSeconds: ttlDays === null ? null : ttlDays * 86_400,
  archiveSeconds: archiveDays === null ? null : archiveDays * 86_400,
});

describe('retention rules (pure)', () => {
  it('parses fixed-length ISO 8601 durations and refuses the rest, naming the field', () => {
    expect(parseDuration('P30D')).toEqual({ ok: true, seconds: 30 * 86_400 });
    expect(parseDuration('P1W2DT3H4M5S')).toEqual({ ok: true, seconds: 9 * 86_400 + 3 * 3600 + 4 * 60 + 5 });
    expect(parseDuration('PT0S')).toEqual({ ok: true, seconds: 0 });
    for (const bad of ['30d', 'P1M', 'P1Y', 'P', 'PT', '', 'P-1D']) expect(parseDuration(bad).ok, bad).toBe(false);
    expect(formatDuration(90 * 86_400 + 3600)).toBe('P90DT1H');
    const parsed = parseRetentionRule({ kind: 'profile', ttl: 'soon' });
    expect(parsed.ok || parsed.error.field).toBe('rule.ttl');
    const unknown = parseRetentionRule({ kind: 'gossip' });
    expect(unknown.ok || unknown.error.field).toBe('rule.kind');
    expect(parseRetentionRule({ sensitivity: 'restricted', ttl: 'P1D', archiveFor: 'PT0S' })).toEqual({
      ok: true,
      value: rule('*', 'restricted', 1, 0),
    });
  });

  it('applies the most specific rule; between a kind-only and a sensitivity-only rule, the stricter', () => {
    const rules = [
      rule('*', '*', 365, null),
      rule('profile', '*', 90, null),
      rule('*', 'personal', 30, 10),
      rule('profile', 'restricted', 7, 0),
    ];
    expect(ruleFor(rules, 'profile', 'restricted')).toEqual(rules[3]);
    expect(ruleFor(rules, 'profile', 'personal')).toEqual(rules[2]);
    expect(ruleFor(rules, 'profile', 'normal')).toEqual(rules[1]);
    expect(ruleFor(rules, 'episodic', 'normal')).toEqual(rules[0]);
    expect(ruleFor([], 'episodic', 'normal')).toBeUndefined();
  });

  it('plans expiry from the explicit expiresAt or record time + TTL, and erasure after the archive period from the due instant', () => {
    const t0 = '2026-01-01T00:00:00.000Z';
    const at = (days: number) => new Date(Date.parse(t0) + days * DAY).toISOString();
    const base = { sensitivity: 'personal' as const, recordedAt: t0, status: 'active' as const };
    const entries = [
      { ...base, memoryId: 'm-ttl', sequence: 1, kind: 'profile' as const },
      { ...base, memoryId: 'm-explicit', sequence: 2, kind: 'profile' as const, expiresAt: at(100) },
      { ...base, memoryId: 'm-none', sequence: 3, kind: 'episodic' as const, sensitivity: 'normal' as const },
      { ...base, memoryId: 'm-archived', sequence: 4, kind: 'profile' as const, status: 'expired' as const, expiredDueAt: at(5) },
      { ...base, memoryId: 'm-gone', sequence: 5, kind: 'profile' as const, status: 'forgotten' as const },
    ];
    const rules = [rule('profile', '*', 30, 60)];
    expect(planRetention(entries, rules, at(29))).toEqual({ expire: [], erase: [] });
    expect(planRetention(entries, rules, at(30))).toEqual({ expire: [{ memoryId: 'm-ttl', expiresAt: at(30) }], erase: [] });
    expect(planRetention(entries, rules, at(65))).toEqual({
      expire: [{ memoryId: 'm-ttl', expiresAt: at(30) }],
      erase: [{ memoryId: 'm-archived', dueAt: at(65) }],
    });
    expect(planRetention(entries, rules, at(160))).toEqual({
      expire: [
        { memoryId: 'm-ttl', expiresAt: at(30) },
        { memoryId: 'm-explicit', expiresAt: at(100) },
      ],
      erase: [
        { memoryId: 'm-ttl', dueAt: at(90) },
        { memoryId: 'm-explicit', dueAt: at(160) },
        { memoryId: 'm-archived', dueAt: at(65) },
      ],
    });
  });
});

describe('the retention sweeper', () => {
  let world: World;
  let policies: PostgresRetentionPolicies;
  beforeAll(async () => {
    world = await openWorld('forgetting_retention');
    policies = new PostgresRetentionPolicies(world.databaseUrl);
  });
  afterAll(async () => {
    await policies?.close();
    await world?.close();
  });

  it('archives what is due (kept for audit, never recalled), then erases it when the archive period is over', async () => {
    const c = { tenant: 'retain', subject: 'u-1' };
    await policies.put(c.tenant, rule('profile', '*', 30, 60), 'test');
    await policies.put(c.tenant, rule('*', 'restricted', 1, 0), 'test');
    expect((await policies.rules(c.tenant)).length).toBe(2);
    const record = async (entry: Record<string, unknown>) => ok(await recordMemory(world.ledger, c, entry)).memoryId;
    const address = await record(fact('home.address', '12 Quarry Lane, Leeds LS2 9JT', { sensitivity: 'personal' }));
    const passport = await record({
      kind: 'semantic',
      key: 'id.passport',
      value: { type: 'text', text: 'passport 533380006' },
      sensitivity: 'restricted',
      source: { type: 'user_assertion' },
    });
    const kept = await record({
      kind: 'procedural',
      key: 'refund.flow',
      value: { type: 'text', text: 'check the order first' },
      source: { type: 'human_review' },
    });
    const explicit = await record(
      fact('contact.email', 'leeds-user@example.org', { expiresAt: new Date(Date.now() + 400 * DAY).toISOString() }),
    );
    const beforeSweep = new Date().toISOString();
    const now = Date.now();
    const sweep = (days: number) => sweepSubject(world.ledger, policies, c, new Date(now + days * DAY).toISOString(), world.erasure(c));
    const events = async () => JSON.stringify(await readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c));
    const past = async () =>
      JSON.stringify([
        await asOf(world.read, { ...c, systemTime: beforeSweep }),
        await replay(world.read, { ...c, systemTime: beforeSweep }),
      ]);

    const day31 = await sweep(31);
    expect([...day31.expired].sort()).toEqual([address, passport].sort());
    expect(day31.erased).toMatchObject({
      scope: 'retention',
      memoryIds: [passport],
      requestedBy: 'retention-sweeper',
      canonicalRecords: 1,
    });
    expect(day31.erased?.verification?.status, JSON.stringify(day31.erased?.verification)).toBe('passed');
    expect(await sweep(31)).toMatchObject({ expired: [], erased: null });

    // Archived: out of every context, still there for an auditor (what the system knew, and the log).
    await world.catchUp(c);
    const recalled = JSON.stringify(
      await recall(world.read, { ...c, maxSensitivity: 'restricted', now: new Date(now + 31 * DAY).toISOString() }),
    );
    expect(recalled).not.toContain('Quarry Lane');
    expect(recalled).toContain('check the order first');
    expect(await past()).toContain('Quarry Lane');
    expect(await events()).toContain('Quarry Lane');
    // Erased: readable by nobody, not even about the past.
    expect(await past()).not.toContain('533380006');
    expect(await events()).not.toContain('533380006');

    const day91 = await sweep(91);
    expect(day91.expired).toEqual([]);
    expect(day91.erased).toMatchObject({ scope: 'retention', memoryIds: [address] });
    await world.catchUp(c);
    expect(await past()).not.toContain('Quarry Lane');
    const after = await events();
    expect(after).not.toContain('Quarry Lane');
    expect(after).toContain('check the order first');
    expect(after).toContain('leeds-user@example.org'); // its explicit expiresAt wins over the rule's TTL
    expect([kept, explicit].every((id) => !day91.erased?.memoryIds.includes(id))).toBe(true);
  });

  it('applies a rule to what was recorded before it existed, and removing a rule stops it', async () => {
    const c = { tenant: 'retain-late', subject: 'u-2' };
    const m = ok(await recordMemory(world.ledger, c, fact('shoe.size', 'EU 44 wide fit'))).memoryId;
    const later = new Date(Date.now() + 10 * DAY).toISOString();
    expect(await sweepSubject(world.ledger, policies, c, later)).toMatchObject({ expired: [], erased: null });
    await policies.put(c.tenant, rule('*', '*', 5, null));
    expect((await sweepSubject(world.ledger, policies, c, later)).expired).toEqual([m]);
    expect(await policies.remove(c.tenant, '*', '*')).toBe(true);
    expect(await policies.remove(c.tenant, '*', '*')).toBe(false);
  });

  it('the CLI keeps rules per tenant and refuses a bad duration naming the option', async () => {
    const set = await runCli(
      ['retention', 'set', '--tenant', 'cli-t', '--kind', 'episodic', '--ttl', 'P14D', '--archive-for', 'P30D'],
      world.env,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      tenant: 'cli-t',
      rules: [{ kind: 'episodic', sensitivity: '*', ttl: 'P14D', archiveFor: 'P30D' }],
    });
    const bad = await runCli(['retention', 'set', '--tenant', 'cli-t', '--ttl', 'two weeks'], world.env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'ttl' });
    const list = await runCli(['retention', 'list', '--tenant', 'cli-t'], world.env);
    expect(JSON.parse(list.stdout).rules).toHaveLength(1);
    // The sweep: archived at day 15, erased (with a receipt) after 30 more days.
    const m = ok(
      await recordMemory(
        world.ledger,
        { tenant: 'cli-t', subject: 'u-cli' },
        {
          kind: 'episodic',
          key: 'visit.note',
          value: { type: 'text', text: 'asked about parcel 7781-QX' },
          source: { type: 'user_assertion' },
        },
      ),
    ).memoryId;
    const sweep = async (days: number) => {
      const run = await runCli(
        ['retention', 'sweep', '--tenant', 'cli-t', '--now', new Date(Date.now() + days * DAY).toISOString()],
        world.env,
      );
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as {
        subjects: Array<{ subject: string; expired: string[]; erased: { memoryIds: string[]; verification: { status: string } } | null }>;
      };
    };
    expect((await sweep(15)).subjects).toEqual([{ tenant: 'cli-t', subject: 'u-cli', expired: [m], erased: null }]);
    const erased = (await sweep(46)).subjects[0]!;
    expect(erased.erased).toMatchObject({ memoryIds: [m], scope: 'retention', verification: { status: 'passed' } });
  }, 240_000);
});
