// Positions for the lineage graph: dagre's layered layout, left to right
// (artifact -> claims -> memory versions), in SVG user units.
import dagre from '@dagrejs/dagre';
import type { GraphEdge, GraphNode, LineageGraph } from './lineage-graph.js';

export interface PlacedNode {
  readonly node: GraphNode;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedEdge {
  readonly edge: GraphEdge;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

const CHAR_WIDTH = 7.2;
const PADDING = 16;

export function nodeSize(node: GraphNode): { width: number; height: number } {
  const lines = nodeLines(node);
  const longest = Math.max(...lines.map((l) => l.length));
  return { width: Math.ceil(longest * CHAR_WIDTH + 2 * PADDING), height: 18 * lines.length + 2 * 10 };
}

/** What a node box says, line by line. */
export function nodeLines(node: GraphNode): string[] {
  switch (node.kind) {
    case 'artifact':
      return [
        node.label,
        `${node.artifact.status}${node.artifact.output.status === 'forgotten' ? ', output keys destroyed' : ''}`,
        ...(node.artifact.stale ? [`STALE: ${node.artifact.stale.causeType}`] : []),
      ];
    case 'claim':
      return [`claim: ${node.polarity === 'negated' ? 'NOT ' : ''}${node.label}`];
    case 'open_item':
      return [node.label];
    case 'memory':
      return [...(node.key ? [node.key] : []), node.label, `now ${node.statusNow ?? 'unknown'}`];
  }
}

export function layoutGraph(graph: LineageGraph): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 70, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { ...nodeSize(node) });
  for (const edge of graph.edges) g.setEdge(edge.from, edge.to);
  dagre.layout(g);
  const nodes = graph.nodes.map((node) => {
    const placed = g.node(node.id) as { x: number; y: number; width: number; height: number };
    return { node, x: placed.x, y: placed.y, width: placed.width, height: placed.height };
  });
  const edges = graph.edges.map((edge) => ({ edge, points: (g.edge(edge.from, edge.to) as { points: PlacedEdge['points'] }).points }));
  const info = g.graph() as { width?: number; height?: number };
  return { width: Math.ceil(info.width ?? 0), height: Math.ceil(info.height ?? 0), nodes, edges };
}
