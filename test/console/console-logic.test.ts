// The console's logic that decides what an auditor is told: whether as-of
// and replay agree, where the sliders stop, what the lineage graph links,
// which optional API parameters are sent, and what a route says.
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../console/src/api/client.js';
import { capabilitiesOf, RECALL_PATH } from '../../console/src/api/capabilities.js';
import type { Belief, DecodedEvent, Lineage, LineageArtifact } from '../../console/src/api/types.js';
import { formatRoute, parseRoute } from '../../console/src/route.js';
import { lineageGraph } from '../../console/src/views/lineage/lineage-graph.js';
import { scopeParameters } from '../../console/src/views/recall/explain-recall.js';
import { compareBeliefs } from '../../console/src/views/timeline/agreement.js';
import { markAtOrBefore, validTimes } from '../../console/src/views/timeline/time-marks.js';

const belief = (memoryId: string, text: string, extra: Partial<Belief> = {}): Belief => ({
  memoryId,
  version: 1,
  sequence: 1,
  status: 'active',
  kind: 'profile',
  key: 'notification.preference',
  scopes: {},
  polarity: 'affirmed',
  personal: { status: 'readable', value: { type: 'text', text } },
  source: { type: 'user_assertion', refs: ['msg://a'] },
  trust: 'user_assertion',
  validFrom: '2026-07-01T09:00:00.000Z',
  validTo: null,
  recordedAt: '2026-12-01T10:00:00.000Z',
  ...extra,
});

describe('as-of against replay', () => {
  it('agrees on equal beliefs whatever the order of their fields', () => {
    const a = belief('m-1', 'email');
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as unknown as Belief;
    expect(compareBeliefs([a], [reordered]).agree).toBe(true);
  });

  it('names what only one side holds, and what differs', () => {
    const result = compareBeliefs([belief('m-1', 'email'), belief('m-2', 'x')], [belief('m-1', 'sms'), belief('m-3', 'y')]);
    expect(result).toEqual({ agree: false, onlyAsOf: ['m-2 v1'], onlyReplay: ['m-3 v1'], differing: ['m-1 v1'] });
    expect(compareBeliefs([belief('m-1', 'a'), belief('m-2', 'b')], [belief('m-2', 'b'), belief('m-1', 'a')]).agree).toBe(false);
  });
});

describe('slider positions', () => {
  const event = (recordedAt: string, data: Record<string, unknown>): DecodedEvent => ({
    revision: 0,
    position: '1/1',
    recordedAt,
    id: recordedAt,
    type: 'MemoryRecorded',
    data,
  });
  it('valid time stops at every window edge and commit time, in order, once each', () => {
    const marks = validTimes([
      event('2026-12-01T10:00:00.000Z', { validFrom: '2026-07-01T09:00:00Z' }),
      event('2026-12-01T10:00:01.000Z', { validTo: '2026-07-10T09:00:00.000Z', validFrom: '2026-07-01T09:00:00.000Z' }),
    ]);
    expect(marks).toEqual(['2026-07-01T09:00:00.000Z', '2026-07-10T09:00:00.000Z', '2026-12-01T10:00:00.000Z', '2026-12-01T10:00:01.000Z']);
    expect(markAtOrBefore(marks, '2026-07-15T00:00:00.000Z')).toBe(1);
    expect(markAtOrBefore(marks, '2026-01-01T00:00:00.000Z')).toBe(0);
  });
});

describe('the lineage graph', () => {
  const artifact = (id: string, parent: string | null, output: LineageArtifact['output']): LineageArtifact => ({
    artifactId: id,
    subject: 's',
    status: 'published',
    parentArtifactId: parent,
    inputEpoch: 1,
    newCoversThrough: 3,
    generatedAt: null,
    publishedAt: null,
    stale: null,
    inputs: [
      { memoryId: 'm-1', version: 1, sequence: 1, statusNow: 'active', invalidatedBy: null },
      {
        memoryId: 'm-2',
        version: 1,
        sequence: 2,
        statusNow: 'forgotten',
        invalidatedBy: { eventId: 'e', type: 'MemoryForgotten', at: 't' },
      },
    ],
    output,
  });
  const claims: LineageArtifact['output'] = {
    status: 'readable',
    claims: [{ index: 0, key: 'k', polarity: 'affirmed', conflictIds: [], derivedFrom: [{ memoryId: 'm-1', version: 1 }] }],
    openItems: [],
  };
  const lineage: Lineage = { artifactId: 'a2', stale: false, artifacts: [artifact('a2', 'a1', claims), artifact('a1', null, claims)] };

  it('links artifact -> parent, artifact -> claim -> memory version, and hangs uncited inputs from the artifact', () => {
    const graph = lineageGraph(lineage, new Map([['m-1', 'notification.preference']]));
    expect(graph.edges).toEqual([
      { from: 'artifact:a2', to: 'artifact:a1', kind: 'parent' },
      { from: 'artifact:a2', to: 'claim:a2:0', kind: 'claims' },
      { from: 'claim:a2:0', to: 'memory:m-1:v1', kind: 'derived_from' },
      { from: 'artifact:a2', to: 'memory:m-2:v1', kind: 'input' },
    ]);
    expect(graph.nodes.find((n) => n.id === 'memory:m-1:v1')).toMatchObject({ key: 'notification.preference', statusNow: 'active' });
    expect(graph.nodes.find((n) => n.id === 'memory:m-2:v1')).toMatchObject({
      statusNow: 'forgotten',
      invalidatedBy: 'MemoryForgotten at t',
    });
  });

  it("draws the parents' claims only when asked", () => {
    expect(lineageGraph(lineage, new Map(), { ancestorClaims: true }).edges).toContainEqual({
      from: 'claim:a1:0',
      to: 'memory:m-1:v1',
      kind: 'derived_from',
    });
  });

  it('links every input to the artifact once its output can no longer be read', () => {
    const graph = lineageGraph({ artifactId: 'a', stale: true, artifacts: [artifact('a', null, { status: 'forgotten' })] });
    expect(graph.edges.map((e) => [e.to, e.kind])).toEqual([
      ['memory:m-1:v1', 'input'],
      ['memory:m-2:v1', 'input'],
    ]);
  });
});

describe('what the console sends', () => {
  it("sends recall's question only when the server's OpenAPI document lists it", () => {
    const doc = (names: string[]) => ({ paths: { [RECALL_PATH]: { get: { parameters: names.map((name) => ({ name, in: 'query' })) } } } });
    expect(capabilitiesOf(doc(['budget', 'maxSensitivity'])).recallQuery).toBe(false);
    expect(capabilitiesOf(doc(['budget', 'query'])).recallQuery).toBe(true);
    expect(capabilitiesOf({}).recallQuery).toBe(false);
  });

  it('turns typed scopes into scope.K parameters and names the field of a malformed one', () => {
    expect(scopeParameters(' project=shop-a, thread = t9 ,')).toEqual({ 'scope.project': 'shop-a', 'scope.thread': 't9' });
    let refused: unknown;
    try {
      scopeParameters('project');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).problem.field).toBe('scopes');
  });

  it('keeps the subject and artifact in the route, and nothing else', () => {
    const route = { view: 'lineage', subject: 'customer 7', artifact: 'summary:customer-7:000009:ab' } as const;
    expect(parseRoute(formatRoute(route))).toEqual(route);
    expect(parseRoute('#/nope?subject=s')).toEqual({ view: 'timeline', subject: 's' });
    expect(parseRoute('#main')).toBeUndefined();
  });
});
