// lineage(artifact): the derivation graph (claims -> memory versions,
// artifact -> parent artifacts) with STALE marks, and its W3C PROV-JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { lineage } from '../../src/queries/lineage/lineage.js';
import { artifactEntityId, memoryEntityId, toProvJson } from '../../src/queries/lineage/prov-json.js';
import { staleSet } from '../../src/queries/stale-set.js';
import { provJsonProblems } from './support/prov-json-shape.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;
let first: string;
let second: string;
const firstInputs: string[] = [];
const secondInputs: string[] = [];

const fact = (key: string, value: string) => ({
  kind: 'profile',
  key,
  value: { type: 'text', text: value },
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
});

beforeAll(async () => {
  world = await openReadWorld('queries_lineage');
  services = await consolidationServices();
  const c = ctx('l-1');
  for (const [k, v] of [
    ['notification.preference', 'sms'],
    ['shipping.city', 'Hangzhou'],
    ['language', 'zh'],
  ] as const)
    firstInputs.push(ok(await recordMemory(world.t.ledger, c, fact(k, v))).memoryId);
  const one = ok(await runConsolidation(world.t.ledger, services, c));
  if (one.status !== 'switched') throw new Error(`first consolidation: ${one.status}`);
  first = one.prepare.artifactId;
  for (const [k, v] of [
    ['delivery.delay', '72h'],
    ['contact.hours', '09-18'],
  ] as const)
    secondInputs.push(ok(await recordMemory(world.t.ledger, c, fact(k, v))).memoryId);
  const two = ok(await runConsolidation(world.t.ledger, services, c));
  if (two.status !== 'switched') throw new Error(`second consolidation: ${two.status}`);
  second = two.prepare.artifactId;
  await world.catchUp(ctx('l-1'));
}, 120_000);
afterAll(async () => world?.close());

describe('lineage', () => {
  it('follows claims to memory versions and the artifact to its parent', async () => {
    const graph = await lineage(world.read, 'acme', second);
    expect(graph.artifacts.map((a) => a.artifactId)).toEqual([second, first]);
    const [top, parent] = graph.artifacts;
    expect(top).toMatchObject({ parentArtifactId: first, status: 'published', stale: null });
    expect(parent).toMatchObject({ parentArtifactId: null, status: 'published', stale: null });
    expect(top!.inputs.map((i) => i.memoryId).sort()).toEqual([...firstInputs, ...secondInputs].sort());
    expect(parent!.inputs.map((i) => i.memoryId).sort()).toEqual([...firstInputs].sort());
    for (const input of top!.inputs) expect(input).toMatchObject({ version: 1, statusNow: 'active', invalidatedBy: null });
    if (top!.output.status !== 'readable') throw new Error('output unreadable');
    const cited = top!.output.claims.flatMap((c) => c.derivedFrom);
    expect(cited.map((d) => d.memoryId).sort()).toEqual([...firstInputs, ...secondInputs].sort());
    expect(cited.every((d) => d.version === 1)).toBe(true);
  });

  it('exports valid PROV-JSON that names every input of both levels', async () => {
    const doc = JSON.parse(JSON.stringify(toProvJson(await lineage(world.read, 'acme', second))));
    expect(provJsonProblems(doc)).toEqual([]);
    for (const memoryId of [...firstInputs, ...secondInputs]) expect(Object.keys(doc.entity)).toContain(memoryEntityId(memoryId, 1));
    for (const artifactId of [first, second])
      expect(doc.entity[artifactEntityId(artifactId)]).toMatchObject({ 'prov:type': { $: 'ml:SummaryArtifact', type: 'xsd:QName' } });
    const derived = Object.values(doc.wasDerivedFrom) as Array<Record<string, string>>;
    expect(derived).toContainEqual(
      expect.objectContaining({ 'prov:generatedEntity': artifactEntityId(second), 'prov:usedEntity': artifactEntityId(first) }),
    );
    for (const memoryId of firstInputs) {
      for (const artifactId of [first, second])
        expect(derived).toContainEqual(
          expect.objectContaining({ 'prov:generatedEntity': artifactEntityId(artifactId), 'prov:usedEntity': memoryEntityId(memoryId, 1) }),
        );
    }
    expect(Object.values(doc.wasGeneratedBy).length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(doc.agent)).toEqual(['ml:model/deterministic-v2']);
    expect(doc.wasInvalidatedBy).toEqual({});
    // The validator does catch a broken document.
    expect(provJsonProblems({ ...doc, wasDerivedFrom: { '_:x': { 'prov:generatedEntity': 'ml:nowhere' } } }).length).toBeGreaterThan(0);
  });

  it('marks STALE through the parent chain and names the invalidating event', async () => {
    const retracted = firstInputs[1]!;
    const result = ok(await retractMemory(world.t.ledger, ctx('l-1'), retracted, 'wrong city'));
    await world.catchUp(ctx('l-1'));
    const graph = await lineage(world.read, 'acme', second);
    expect(graph.stale).toBe(true);
    for (const a of graph.artifacts) {
      expect(a.stale).toMatchObject({ causeType: 'MemoryRetracted', causeMemoryId: retracted });
      expect(a.inputs.find((i) => i.memoryId === retracted)).toMatchObject({
        statusNow: 'retracted',
        invalidatedBy: { type: 'MemoryRetracted', at: result.recordedAt },
      });
    }
    const doc = toProvJson(graph);
    expect(provJsonProblems(JSON.parse(JSON.stringify(doc)))).toEqual([]);
    const invalidated = Object.values(doc.wasInvalidatedBy).map((r) => r['prov:entity']);
    expect(invalidated).toEqual(expect.arrayContaining([memoryEntityId(retracted, 1), artifactEntityId(first), artifactEntityId(second)]));
    expect((await staleSet(world.read, 'acme', 'l-1')).stale.map((s) => s.artifactId).sort()).toEqual([first, second].sort());
  });

  it('another tenant asking for the artifact gets a typed not-found, nothing more', async () => {
    await expect(lineage(world.read, 'globex', second)).rejects.toMatchObject({ name: 'InvalidInput', field: 'artifact' });
    await expect(lineage(world.read, 'acme', 'summary:nope')).rejects.toMatchObject({ field: 'artifact' });
  });
});
