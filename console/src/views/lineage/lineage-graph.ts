// The lineage answer as a graph to draw: artifacts, their claims and open
// items, and the memory versions they derive from; edges claim -> memory
// version, artifact -> its claims, artifact -> parent artifact. An input no
// readable claim cites (or every input, once the output's key is destroyed)
// hangs from the artifact directly, so no input is left out of the picture.
// Parent artifacts show as nodes only unless asked for their claims too (a
// chain of summaries restates mostly the same claims: the drawing would
// repeat them once per ancestor).
import type { Lineage, LineageArtifact } from '../../api/types.js';

export type GraphNode =
  | {
      readonly id: string;
      readonly kind: 'artifact';
      readonly label: string;
      readonly artifact: LineageArtifact;
      readonly stale: boolean;
    }
  | { readonly id: string; readonly kind: 'claim'; readonly label: string; readonly artifactId: string; readonly polarity: string }
  | { readonly id: string; readonly kind: 'open_item'; readonly label: string; readonly artifactId: string }
  | {
      readonly id: string;
      readonly kind: 'memory';
      readonly label: string;
      /** The entry's key, from the subject's events (lineage itself names only ids). */
      readonly key: string | undefined;
      readonly memoryId: string;
      readonly version: number | null;
      readonly statusNow: string | null;
      readonly invalidatedBy: string | null;
    };

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'parent' | 'claims' | 'derived_from' | 'input';
}

export interface LineageGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

const memoryNodeId = (memoryId: string, version: number | null) => `memory:${memoryId}:v${version ?? '?'}`;

/** `keys`: memory id -> key, where the caller knows it. */
export function lineageGraph(
  lineage: Lineage,
  keys: ReadonlyMap<string, string> = new Map(),
  options: { readonly ancestorClaims?: boolean } = {},
): LineageGraph {
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const edge = (from: string, to: string, kind: GraphEdge['kind']) => {
    if (!edges.some((e) => e.from === from && e.to === to && e.kind === kind)) edges.push({ from, to, kind });
  };
  for (const a of lineage.artifacts) {
    nodes.set(`artifact:${a.artifactId}`, {
      id: `artifact:${a.artifactId}`,
      kind: 'artifact',
      label: a.artifactId,
      artifact: a,
      stale: a.stale !== null,
    });
  }
  lineage.artifacts.forEach((a, depth) => {
    const artifactNode = `artifact:${a.artifactId}`;
    if (a.parentArtifactId && nodes.has(`artifact:${a.parentArtifactId}`)) edge(artifactNode, `artifact:${a.parentArtifactId}`, 'parent');
    if (depth > 0 && !options.ancestorClaims) return;
    const inputs = new Map(a.inputs.map((i) => [i.memoryId, i]));
    const memoryNode = (memoryId: string, version: number | null) => {
      const id = memoryNodeId(memoryId, version);
      const input = inputs.get(memoryId);
      if (!nodes.has(id))
        nodes.set(id, {
          id,
          kind: 'memory',
          label: `${memoryId} v${version ?? '?'}`,
          key: keys.get(memoryId),
          memoryId,
          version,
          statusNow: input?.statusNow ?? null,
          invalidatedBy: input?.invalidatedBy ? `${input.invalidatedBy.type} at ${input.invalidatedBy.at}` : null,
        });
      return id;
    };
    const cited = new Set<string>();
    if (a.output.status === 'readable') {
      for (const c of a.output.claims) {
        const id = `claim:${a.artifactId}:${c.index}`;
        nodes.set(id, { id, kind: 'claim', label: c.key, artifactId: a.artifactId, polarity: c.polarity });
        edge(artifactNode, id, 'claims');
        for (const d of c.derivedFrom) {
          edge(id, memoryNode(d.memoryId, d.version), 'derived_from');
          cited.add(d.memoryId);
        }
      }
      for (const o of a.output.openItems) {
        const id = `open:${a.artifactId}:${o.index}`;
        nodes.set(id, { id, kind: 'open_item', label: `open item ${o.index + 1}`, artifactId: a.artifactId });
        edge(artifactNode, id, 'claims');
        for (const d of o.derivedFrom) {
          edge(id, memoryNode(d.memoryId, d.version), 'derived_from');
          cited.add(d.memoryId);
        }
      }
    }
    for (const i of a.inputs) if (!cited.has(i.memoryId)) edge(artifactNode, memoryNode(i.memoryId, i.version), 'input');
  });
  return { nodes: [...nodes.values()], edges };
}
