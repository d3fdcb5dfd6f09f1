// Promotion (issue 19 item 3): a private memory reaches a team's namespace
// only as a candidate a reviewer accepts; until then the team's recall is
// unchanged. Accepted, it is served there with its lineage to the source.
// An agent's write into a shared namespace is a candidate too. Forgetting
// the source erases the copy (its own receipt; the source's receipt names it
// and its verification checks it). Bad input is refused naming the field,
// with nothing appended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory, forgetSubject } from '../../src/commands/forget.js';
import { acceptCandidate, listCandidates } from '../../src/commands/policy/candidates.js';
import { promoteMemory } from '../../src/commands/promotion/promote-memory.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { recall } from '../../src/queries/recall/recall.js';
import { SubjectRepository } from '../../src/reads/streams/subject-repository.js';
import { fact, ok, openWorld, type World } from '../forgetting/support.js';
import { countingReads, type NotedRead } from '../support/counting-reads.js';

let world: World;
const user = { tenant: 'acme', subject: 'user:u-7', actor: 'user:u-7' };
const team = { tenant: 'acme', subject: 'team:t-1' };
const reviewer = { ...team, actor: 'reviewer:r-1' };

beforeAll(async () => {
  world = await openWorld('promotion');
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const teamTexts = async () => {
  await world.catchUp(team);
  return (await recall(world.read, { ...team, maxSensitivity: 'restricted' })).items.map((i) => i.text);
};
/** What the log holds once it shows every earlier commit (a write just made may be behind a transaction in flight). */
const eventCount = async () => {
  await world.ledger.eventStore.awaitCommitted();
  return (await world.ledger.eventStore.readAll()).length;
};

describe('PromoteMemory', () => {
  it("changes nothing in the team's recall until a reviewer accepts; accepted, the team recalls it with its lineage", async () => {
    const source = ok(await recordMemory(world.ledger, user, fact('deploy.window', 'deploys only on tuesdays')));
    const before = await teamTexts();
    const promoted = ok(
      await promoteMemory(world.ledger, user, { memoryId: source.memoryId, to: 'team:t-1', reason: 'the team should know the window' }),
    );
    expect(promoted).toMatchObject({
      decision: 'CANDIDATE',
      to: 'team:t-1',
      from: { subject: 'user:u-7', memoryId: source.memoryId, sequence: source.sequence },
      gate: { ruleId: 'floor.promotion' },
    });
    expect(await teamTexts()).toEqual(before);
    // The reviewer sees who asked, why, and from where.
    expect(await listCandidates(world.ledger, team)).toEqual([
      expect.objectContaining({
        memoryId: promoted.memoryId,
        status: 'pending',
        promotion: {
          from: promoted.from,
          reason: 'the team should know the window',
          requestedBy: 'user:u-7',
        },
      }),
    ]);

    const accepted = ok(await acceptCandidate(world.ledger, reviewer, promoted.memoryId));
    expect(accepted).toMatchObject({ memoryId: promoted.memoryId, decision: 'NEW' });
    await world.catchUp(team);
    const answer = await recall(world.read, { ...team, maxSensitivity: 'restricted' });
    const item = answer.items.find((i) => i.type === 'memory' && i.memoryId === promoted.memoryId);
    expect(item?.text).toContain('deploys only on tuesdays');
    expect(item).toMatchObject({
      provenance: { promotedFrom: { subject: 'user:u-7', memoryId: source.memoryId, sequence: source.sequence } },
    });
    // The user's own memory stays where it was, without a promotedFrom.
    await world.catchUp(user);
    const own = (await recall(world.read, { tenant: user.tenant, subject: user.subject })).items.find(
      (i) => i.type === 'memory' && i.memoryId === source.memoryId,
    );
    expect(own).toBeDefined();
    expect(own && 'provenance' in own ? own.provenance : {}).not.toHaveProperty('promotedFrom');
  });

  it("holds an agent's write into a team's namespace as a candidate, and takes the user's own", async () => {
    const agent = { ...team, credential: { role: 'writer' as const, userChannel: false, ceiling: 'verified_tool_fact' as const } };
    const held = ok(
      await recordMemory(world.ledger, agent, {
        ...fact('build.tool', 'bazel'),
        source: { type: 'model_inference', refs: ['run://agent-3/7'] },
      }),
    );
    expect(held).toMatchObject({ decision: 'CANDIDATE', gate: { ruleId: 'agent-into-shared-namespace' } });
    expect((await teamTexts()).join('\n')).not.toContain('bazel');
    // The same write into the agent's own namespace is taken as it is.
    const own = ok(
      await recordMemory(
        world.ledger,
        { ...agent, subject: 'agent:a-3' },
        {
          ...fact('build.tool', 'bazel'),
          source: { type: 'model_inference', refs: ['run://agent-3/7'] },
        },
      ),
    );
    expect(own.decision).toBe('NEW');
    const human = { ...team, credential: { role: 'writer' as const, userChannel: true, ceiling: 'user_assertion' as const } };
    expect(ok(await recordMemory(world.ledger, human, fact('standup.time', 'ten o clock'))).decision).toBe('NEW');
  });

  it('opens the promoted memory from its own MemoryRecorded, however far back it was written', async () => {
    const subject = { ...user, subject: 'user:u-far' };
    const stream = subjectStreamName(subject.tenant, subject.subject);
    const reads: NotedRead[] = [];
    const counting = countingReads(world.ledger.eventStore, stream, reads);
    const here = { ...world.ledger, eventStore: counting, subjects: new SubjectRepository(counting) };
    const source = ok(await recordMemory(here, subject, fact('deploy.freeze', 'no deploys in december')));
    for (let i = 0; i < 12; i++) ok(await recordMemory(here, subject, fact(`note.n${i}`, `note ${i}`)));
    reads.length = 0;
    const promoted = ok(
      await promoteMemory(here, subject, { memoryId: source.memoryId, to: 'team:t-9', reason: 'the team plans around it' }),
    );
    expect(promoted).toMatchObject({ decision: 'CANDIDATE', from: { memoryId: source.memoryId } });
    // Besides the loads' looks past the fold's revision (12), one event is read: the source's MemoryRecorded.
    expect(reads.filter((r) => (r.fromRevision ?? 0) <= 12)).toEqual([{ fromRevision: 0, maxCount: 1 }]);
  });

  it("lists and accepts a team's candidates from their own MemoryProposed, not the whole stream", async () => {
    const target = { tenant: 'acme', subject: 'team:t-long' };
    const stream = subjectStreamName(target.tenant, target.subject);
    const reads: NotedRead[] = [];
    const counting = countingReads(world.ledger.eventStore, stream, reads);
    const here = { ...world.ledger, eventStore: counting, subjects: new SubjectRepository(counting) };
    const human = { ...target, credential: { role: 'writer' as const, userChannel: true, ceiling: 'user_assertion' as const } };
    for (let i = 0; i < 12; i++) ok(await recordMemory(here, human, fact(`team.fact${i}`, `fact ${i}`)));
    const agent = { ...target, credential: { role: 'writer' as const, userChannel: false, ceiling: 'verified_tool_fact' as const } };
    const asked = ok(
      await recordMemory(here, agent, {
        ...fact('team.oncall', 'ana is on call'),
        source: { type: 'model_inference', refs: ['run://agent-4/1'] },
      }),
    );
    expect(asked.decision).toBe('CANDIDATE');
    const place = (await here.subjects.load(stream)).revision;
    for (let i = 0; i < 6; i++) ok(await recordMemory(here, human, fact(`team.later${i}`, `later ${i}`)));
    const revision = (await here.subjects.load(stream)).revision;
    reads.length = 0;
    expect(await listCandidates(here, { ...target, actor: 'reviewer:r-2' })).toEqual([
      expect.objectContaining({ memoryId: asked.memoryId }),
    ]);
    const accepted = ok(await acceptCandidate(here, { ...target, actor: 'reviewer:r-2' }, asked.memoryId));
    expect(accepted).toMatchObject({ memoryId: asked.memoryId, decision: 'NEW' });
    // Besides the loads' looks past the fold's revision, the candidate's own event is read, once for the list and once to accept.
    expect(reads.filter((r) => (r.fromRevision ?? 0) <= revision)).toEqual([
      { fromRevision: place, maxCount: 1 },
      { fromRevision: place, maxCount: 1 },
    ]);
  });

  it('refuses bad input naming the field, and appends nothing', async () => {
    const source = ok(await recordMemory(world.ledger, user, fact('lunch.place', 'the noodle bar')));
    const count = await eventCount();
    const reason = 'share it';
    await expect(promoteMemory(world.ledger, user, { memoryId: source.memoryId, to: 'user:u-8', reason })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'to',
    });
    await expect(promoteMemory(world.ledger, user, { memoryId: source.memoryId, to: 'team:t-1' })).rejects.toMatchObject({
      field: 'reason',
    });
    await expect(promoteMemory(world.ledger, team, { memoryId: source.memoryId, to: 'project:p-1', reason })).rejects.toMatchObject({
      field: 'subject',
    });
    expect(await promoteMemory(world.ledger, user, { memoryId: 'm-nowhere', to: 'team:t-1', reason })).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_found', field: 'memoryId' },
    });
    expect(await eventCount()).toBe(count);
  });
});

describe('forgetting the source of a promotion', () => {
  it('erases the accepted copy in the team, with its own receipt, named and checked by the source receipt', async () => {
    const source = ok(await recordMemory(world.ledger, user, fact('home.street', 'lives on quince lane')));
    const promoted = ok(await promoteMemory(world.ledger, user, { memoryId: source.memoryId, to: 'team:t-1', reason: 'carpool' }));
    ok(await acceptCandidate(world.ledger, reviewer, promoted.memoryId));
    expect((await teamTexts()).join('\n')).toContain('quince lane');

    const receipt = ok(await forgetMemory(world.ledger, user, source.memoryId, 'user asked', world.erasure(user)));
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');
    expect(receipt.verification?.checks).toContainEqual(
      expect.objectContaining({ path: 'promoted_copies', status: 'passed', searched: 1, findings: 0 }),
    );
    expect(receipt.promotedCopies).toEqual([
      expect.objectContaining({ subject: 'team:t-1', memoryId: promoted.memoryId, outcome: 'erased' }),
    ]);
    expect(receipt.promotedCopies?.[0]?.receiptId).toMatch(/./);
    expect((await teamTexts()).join('\n')).not.toContain('quince lane');
    expect((await world.ledger.keyStore.memoryKeys(team, [promoted.memoryId])).get(promoted.memoryId)).toMatchObject({
      status: 'forgotten',
    });
    const teamEvents = await world.ledger.eventStore.readStream('memory-acme/team:t-1');
    const copyReceipt = teamEvents.find(
      (e) => e.type === 'DeletionReceiptIssued' && (e.data as { memoryIds: string[] }).memoryIds.includes(promoted.memoryId),
    );
    expect(copyReceipt?.data).toMatchObject({
      receiptId: receipt.promotedCopies![0]!.receiptId,
      verification: { status: 'passed' },
      reason: `promoted from user:u-7 memory ${source.memoryId}, erased with it`,
    });
  });

  // The team states the same text itself: its entry stays, and the copy's verification finds the text there and says so.
  it("erases only the candidate when it was accepted as a duplicate of the team's own entry", async () => {
    const own = ok(await recordMemory(world.ledger, team, fact('office.city', 'works from lisbon')));
    const source = ok(await recordMemory(world.ledger, user, fact('office.city', 'works from lisbon')));
    const promoted = ok(await promoteMemory(world.ledger, user, { memoryId: source.memoryId, to: 'team:t-1', reason: 'same office' }));
    expect(ok(await acceptCandidate(world.ledger, reviewer, promoted.memoryId))).toMatchObject({
      decision: 'DUPLICATE',
      memoryId: own.memoryId,
    });
    const receipt = ok(await forgetMemory(world.ledger, user, source.memoryId, 'user asked', world.erasure(user)));
    expect(receipt.promotedCopies).toEqual([expect.objectContaining({ memoryId: promoted.memoryId, outcome: 'failed' })]);
    expect(receipt.verification?.checks).toContainEqual(
      expect.objectContaining({ path: 'promoted_copies', status: 'failed', findings: 1 }),
    );
    expect((await world.ledger.keyStore.memoryKeys(team, [promoted.memoryId])).get(promoted.memoryId)).toMatchObject({
      status: 'forgotten',
    });
    expect((await teamTexts()).join('\n')).toContain('works from lisbon');
  });

  it('erases a pending copy when the whole subject is forgotten', async () => {
    const u9 = { tenant: 'acme', subject: 'user:u-9', actor: 'user:u-9' };
    const source = ok(await recordMemory(world.ledger, u9, fact('diet', 'no peanuts')));
    const promoted = ok(await promoteMemory(world.ledger, u9, { memoryId: source.memoryId, to: 'project:p-2', reason: 'catering' }));
    const receipt = ok(await forgetSubject(world.ledger, u9, 'account closed', world.erasure(u9)));
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');
    expect(receipt.promotedCopies).toEqual([
      expect.objectContaining({ subject: 'project:p-2', memoryId: promoted.memoryId, outcome: 'erased' }),
    ]);
    expect(await listCandidates(world.ledger, { tenant: 'acme', subject: 'project:p-2' }, 'all')).toMatchObject([
      { memoryId: promoted.memoryId, status: 'forgotten' },
    ]);
  });
});
