// Erasing a memory destroys the keys of every summary deriving from it,
// through parent summaries; they are STALE and never served again, the
// subject is consolidated anew from what remains, and the receipt lists
// what an independent count finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOutput } from '../../src/reads/opened/artifact-output.js';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import { forgetMemory } from '../../src/commands/forget.js';
import { recordMemory } from '../../src/commands/record.js';
import { consolidationDue } from '../../src/domain/consolidation/schedule.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { recall } from '../../src/queries/recall/recall.js';
import { fact, manifestOf, ok, openWorld, type World } from './support.js';

let world: World;
beforeAll(async () => {
  world = await openWorld('forgetting_cascade');
});
afterAll(async () => world?.close());

const PHONE = '+44 20 7946 0958 ext 31';

describe('erasure cascade', () => {
  it('shreds the summaries built on the erased memory, both levels, and rebuilds from what remains', async () => {
    const c = { tenant: 'acme', subject: 'cascade' };
    const phone = ok(
      await recordMemory(world.ledger, c, fact('contact.phone', PHONE, { content: `Call me on ${PHONE} after six.` })),
    ).memoryId;
    ok(await recordMemory(world.ledger, c, fact('notification.preference', 'sms')));
    const first = ok(await runConsolidation(world.ledger, world.services, c));
    expect(first.status).toBe('switched');
    const level1 = 'prepare' in first ? first.prepare.artifactId : '';
    ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Hangzhou')));
    const second = ok(await runConsolidation(world.ledger, world.services, c));
    const level2 = 'prepare' in second ? second.prepare.artifactId : '';
    expect(second.status).toBe('switched');
    expect((await manifestOf(world, level2)).parent).toBe(level1);
    // Positive control: both summaries say the number before the erasure.
    for (const id of [level1, level2]) {
      const record = await readArtifact(world.ledger.eventStore, id);
      expect(JSON.stringify(await openOutput(world.ledger.keyStore, c, id, record.generated!.output))).toContain(PHONE);
    }

    const receipt = ok(await forgetMemory(world.ledger, { ...c, actor: 'privacy-desk' }, phone, 'user request #4411', world.erasure(c)));

    // An independent count: every artifact whose manifest lists the memory, and every artifact built on one of those.
    const all = await artifactsOf(c);
    const derived = new Set<string>();
    for (let grew = true; grew;) {
      grew = false;
      for (const id of all) {
        const m = await manifestOf(world, id);
        if (!derived.has(id) && (m.inputs.includes(phone) || (m.parent !== null && derived.has(m.parent)))) {
          derived.add(id);
          grew = true;
        }
      }
    }
    expect([...derived].sort()).toEqual([level1, level2].sort());
    expect(receipt.invalidatedArtifactIds).toEqual([...derived].sort());
    expect(receipt.derivedRecordsInvalidated).toBe(derived.size);
    expect(receipt.canonicalRecords).toBe(1);
    expect(receipt.memoryIds).toEqual([phone]);
    const recorded = (await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject))).find(
      (e) => e.type === 'MemoryRecorded' && (e.data as { memoryId: string }).memoryId === phone,
    )!;
    const keyIds = [
      (recorded.data as { value: { keyId: string } }).value.keyId,
      ...(await Promise.all([...derived].map(async (id) => (await manifestOf(world, id)).outputKeyId))),
    ];
    expect([...receipt.destroyedKeyIds].sort()).toEqual(keyIds.sort());
    expect(receipt).toMatchObject({
      scope: 'memory',
      requestedBy: 'privacy-desk',
      reason: 'user request #4411',
      cachesInvalidated: ['summary_alias'],
    });
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');
    expect(receipt.verification?.searchedFor).toContain('plaintext');
    expect(receipt.verification?.checks.map((check) => check.path)).toEqual(
      expect.arrayContaining([
        'keys',
        'event_log',
        'artifacts',
        'recalls',
        'recall',
        'as_of',
        'replay',
        'lineage',
        'events',
        'projection:memory',
        'projection:conflicts_trust',
        'projection:candidates',
      ]),
    );
    expect(JSON.stringify(receipt)).not.toContain(PHONE);

    for (const id of derived) {
      const record = await readArtifact(world.ledger.eventStore, id);
      expect(await openOutput(world.ledger.keyStore, c, id, record.generated!.output)).toBeUndefined();
    }
    // The alias is behind the epoch: the scheduler finds the subject due and rebuilds it from what remains.
    const state = (await world.ledger.subjects.load(subjectStreamName(c.tenant, c.subject))).state;
    expect(consolidationDue(state, 50)).toBe('behind_epoch');
    await world.catchUp(c);
    const before = await recall(world.read, { ...c, maxSensitivity: 'restricted' });
    expect(before.source).toBe('raw');
    expect(JSON.stringify(before)).not.toContain(PHONE);
    const rebuilt = ok(await runConsolidation(world.ledger, world.services, c));
    expect(rebuilt.status).toBe('switched');
    const level3 = 'prepare' in rebuilt ? rebuilt.prepare.artifactId : '';
    expect((await manifestOf(world, level3)).parent).toBeNull();
    expect((await manifestOf(world, level3)).inputs).not.toContain(phone);
    await world.catchUp(c);
    const after = await recall(world.read, { ...c, maxSensitivity: 'restricted' });
    expect(after.source).toBe('summary');
    expect(after.alias?.artifactId).toBe(level3);
    expect(JSON.stringify(after)).toContain('Hangzhou');
    expect(JSON.stringify(after)).not.toContain(PHONE);
  });

  it('refuses a live key to a summary generated from a memory erased meanwhile', async () => {
    const c = { tenant: 'acme', subject: 'race' };
    const m = ok(await recordMemory(world.ledger, c, fact('contact.email', 'someone@example.org'))).memoryId;
    ok(await forgetMemory(world.ledger, c, m));
    const late = await world.ledger.keyStore.artifactKey(c, 'summary:race:000001:late', {
      create: { derivedFrom: [m], parentArtifactId: null },
    });
    expect(late).toMatchObject({ status: 'forgotten', scope: 'artifact' });
    expect(await world.ledger.keyStore.artifactKey(c, 'summary:race:000001:late')).toEqual({ status: 'absent' });
  });
});

async function artifactsOf(c: { tenant: string; subject: string }): Promise<string[]> {
  const ids: string[] = [];
  for (const event of await world.ledger.eventStore.readAll({ filter: { streamPrefixes: ['artifact-'] } })) {
    if (event.type === 'ArtifactGenerated') {
      const m = (event.data as { manifest: { tenant: string; subject: string; artifactId: string } }).manifest;
      if (m.tenant === c.tenant && m.subject === c.subject) ids.push(m.artifactId);
    }
  }
  return ids;
}
