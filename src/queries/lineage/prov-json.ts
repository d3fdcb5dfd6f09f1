// A lineage as W3C PROV-JSON (https://www.w3.org/submissions/prov-json/):
// artifacts, memory versions and claims are entities; a consolidation and
// every invalidating event are activities; the summarizer's model is an
// agent. Relations: wasGeneratedBy, used, wasDerivedFrom (artifact ->
// inputs, artifact -> parent, claim -> memory versions), wasInvalidatedBy
// (an input's closing event; a STALE artifact's cause), wasAssociatedWith,
// hadMember (artifact -> its claims, anchors and evidence pointers; an
// anchor wasDerivedFrom the memory versions its pointers name). Labels
// carry keys and ids, never personal values (an anchor's statement is
// sealed and stays out).
import type { Lineage, LineageArtifact } from './lineage.js';

export const MEMLEDGER_NAMESPACE = 'https://memledger.dev/ns/prov#';

/** A typed literal (PROV-JSON section 3.2), e.g. a qualified name as an attribute value. */
type TypedLiteral = { readonly $: string; readonly type: string };
type Attributes = Record<string, string | number | boolean | TypedLiteral>;

/** prov:type values are qualified names, not strings. */
const qname = (name: string): TypedLiteral => ({ $: name, type: 'xsd:QName' });
type Records = Record<string, Attributes>;

export interface ProvDocument {
  readonly prefix: Record<string, string>;
  readonly entity: Records;
  readonly activity: Records;
  readonly agent: Records;
  readonly wasGeneratedBy: Records;
  readonly used: Records;
  readonly wasDerivedFrom: Records;
  readonly wasInvalidatedBy: Records;
  readonly wasAssociatedWith: Records;
  readonly hadMember: Records;
}

export const artifactEntityId = (artifactId: string) => `ml:artifact/${artifactId}`;
export const memoryEntityId = (memoryId: string, version: number) => `ml:memory/${memoryId}/v${version}`;
const claimEntityId = (artifactId: string, index: number) => `ml:claim/${artifactId}/${index}`;
const anchorEntityId = (artifactId: string, anchorId: string) => `ml:anchor/${artifactId}/${anchorId}`;
const pointerEntityId = (artifactId: string, pointerId: string) => `ml:pointer/${artifactId}/${pointerId}`;
const consolidationId = (artifactId: string) => `ml:consolidation/${artifactId}`;
const eventId = (id: string) => `ml:event/${id}`;
const modelId = (snapshot: string) => `ml:model/${snapshot}`;

export function toProvJson(lineage: Lineage): ProvDocument {
  const doc: ProvDocument = {
    prefix: { ml: MEMLEDGER_NAMESPACE },
    entity: {},
    activity: {},
    agent: {},
    wasGeneratedBy: {},
    used: {},
    wasDerivedFrom: {},
    wasInvalidatedBy: {},
    wasAssociatedWith: {},
    hadMember: {},
  };
  const counters = new Map<string, number>();
  const invalidated = new Set<string>();
  const relation = (kind: keyof ProvDocument, attributes: Attributes) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    (doc[kind] as Records)[`_:${kind}${n}`] = attributes;
  };
  const invalidation = (entity: string, event: { eventId: string; type: string; at: string }) => {
    if (invalidated.has(entity)) return;
    invalidated.add(entity);
    doc.activity[eventId(event.eventId)] ??= {
      'prov:type': qname(`ml:${event.type}`),
      'prov:startTime': event.at,
      'prov:endTime': event.at,
    };
    relation('wasInvalidatedBy', { 'prov:entity': entity, 'prov:activity': eventId(event.eventId), 'prov:time': event.at });
  };
  for (const artifact of lineage.artifacts) addArtifact(doc, artifact, relation, invalidation);
  return doc;
}

function addArtifact(
  doc: ProvDocument,
  a: LineageArtifact,
  relation: (kind: keyof ProvDocument, attributes: Attributes) => void,
  invalidation: (entity: string, event: { eventId: string; type: string; at: string }) => void,
): void {
  const entity = artifactEntityId(a.artifactId);
  const activity = consolidationId(a.artifactId);
  doc.entity[entity] = {
    'prov:type': qname('ml:SummaryArtifact'),
    'prov:label': a.artifactId,
    'ml:tenant': a.tenant,
    'ml:subject': a.subject,
    'ml:status': a.status,
    'ml:stale': a.stale !== null,
    ...(a.inputEpoch !== null ? { 'ml:inputEpoch': a.inputEpoch } : {}),
    ...(a.newCoversThrough !== null ? { 'ml:coversThrough': a.newCoversThrough } : {}),
  };
  doc.activity[activity] = {
    'prov:type': qname('ml:Consolidation'),
    ...(a.generatedAt ? { 'prov:startTime': a.generatedAt, 'prov:endTime': a.generatedAt } : {}),
    ...(a.selectorVersion ? { 'ml:selectorVersion': a.selectorVersion } : {}),
    ...(a.promptVersion ? { 'ml:promptVersion': a.promptVersion } : {}),
  };
  relation('wasGeneratedBy', {
    'prov:entity': entity,
    'prov:activity': activity,
    ...(a.generatedAt ? { 'prov:time': a.generatedAt } : {}),
  });
  if (a.modelSnapshot) {
    doc.agent[modelId(a.modelSnapshot)] ??= { 'prov:type': qname('prov:SoftwareAgent'), 'prov:label': a.modelSnapshot };
    relation('wasAssociatedWith', { 'prov:activity': activity, 'prov:agent': modelId(a.modelSnapshot) });
  }
  for (const input of a.inputs) {
    const memory = memoryEntityId(input.memoryId, input.version);
    doc.entity[memory] ??= {
      'prov:type': qname('ml:MemoryVersion'),
      'prov:label': `${input.memoryId} v${input.version}`,
      'ml:memoryId': input.memoryId,
      'ml:version': input.version,
      ...(input.sequence !== null ? { 'ml:sequence': input.sequence } : {}),
      ...(input.statusNow !== null ? { 'ml:statusNow': input.statusNow } : {}),
    };
    relation('used', { 'prov:activity': activity, 'prov:entity': memory });
    relation('wasDerivedFrom', { 'prov:generatedEntity': entity, 'prov:usedEntity': memory, 'prov:activity': activity });
    if (input.invalidatedBy) invalidation(memory, input.invalidatedBy);
  }
  if (a.parentArtifactId) {
    // Defined in full when the parent's own turn comes; a placeholder keeps the document closed if it is missing.
    doc.entity[artifactEntityId(a.parentArtifactId)] ??= { 'prov:type': qname('ml:SummaryArtifact'), 'prov:label': a.parentArtifactId };
    relation('wasDerivedFrom', {
      'prov:generatedEntity': entity,
      'prov:usedEntity': artifactEntityId(a.parentArtifactId),
      'prov:activity': activity,
      'prov:type': qname('prov:Revision'),
    });
    relation('used', { 'prov:activity': activity, 'prov:entity': artifactEntityId(a.parentArtifactId) });
  }
  if (a.stale) invalidation(entity, { eventId: a.stale.causeEventId, type: a.stale.causeType, at: a.stale.causeAt });
  addRecord(doc, a, relation);
  if (a.output.status !== 'readable') return;
  for (const claim of a.output.claims) {
    const id = claimEntityId(a.artifactId, claim.index);
    doc.entity[id] = {
      'prov:type': qname('ml:Claim'),
      'prov:label': claim.key,
      'ml:key': claim.key,
      'ml:polarity': claim.polarity,
      'ml:disputed': claim.conflictIds.length > 0,
    };
    relation('hadMember', { 'prov:collection': entity, 'prov:entity': id });
    relation('wasGeneratedBy', { 'prov:entity': id, 'prov:activity': activity, ...(a.generatedAt ? { 'prov:time': a.generatedAt } : {}) });
    for (const source of claim.derivedFrom) {
      if (source.version === null) continue;
      relation('wasDerivedFrom', {
        'prov:generatedEntity': id,
        'prov:usedEntity': memoryEntityId(source.memoryId, source.version),
        'prov:activity': activity,
      });
    }
  }
}

/** The compaction record's anchors and pointers as entities of the artifact; a memory pointer leads to the memory version it names. */
function addRecord(doc: ProvDocument, a: LineageArtifact, relation: (kind: keyof ProvDocument, attributes: Attributes) => void): void {
  if (!a.record) return;
  const entity = artifactEntityId(a.artifactId);
  const versionOf = new Map(a.inputs.map((i) => [i.memoryId, i.version]));
  const memoryOf = new Map<string, string>();
  for (const p of a.record.pointers) {
    const id = pointerEntityId(a.artifactId, p.id);
    const version = p.memoryId !== undefined ? versionOf.get(p.memoryId) : undefined;
    if (p.kind === 'memory_version' && version !== undefined) memoryOf.set(p.id, memoryEntityId(p.memoryId!, version));
    doc.entity[id] = {
      'prov:type': qname('ml:EvidencePointer'),
      'prov:label': p.id,
      'ml:kind': p.kind,
      'ml:purpose': p.purpose,
      ...(p.memoryId !== undefined ? { 'ml:memoryId': p.memoryId } : {}),
      ...(p.sequence !== undefined ? { 'ml:sequence': p.sequence } : {}),
      ...(p.ref !== undefined ? { 'ml:ref': p.ref } : {}),
      ...(p.conflictId !== undefined ? { 'ml:conflictId': p.conflictId } : {}),
    };
    relation('hadMember', { 'prov:collection': entity, 'prov:entity': id });
  }
  for (const anchor of a.record.anchors) {
    const id = anchorEntityId(a.artifactId, anchor.id);
    doc.entity[id] = {
      'prov:type': qname('ml:Anchor'),
      'prov:label': anchor.id,
      'ml:kind': anchor.kind,
      'ml:status': anchor.status,
      'ml:volatile': anchor.volatile,
      'ml:pointers': anchor.pointerIds.join(' '),
      ...(anchor.key !== undefined ? { 'ml:key': anchor.key } : {}),
    };
    relation('hadMember', { 'prov:collection': entity, 'prov:entity': id });
    for (const pointerId of anchor.pointerIds) {
      const memory = memoryOf.get(pointerId);
      if (memory) relation('wasDerivedFrom', { 'prov:generatedEntity': id, 'prov:usedEntity': memory });
    }
  }
}
