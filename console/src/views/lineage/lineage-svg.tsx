// The lineage graph drawn as SVG: every node is a focusable button (Tab to
// it, Enter or Space to see its details), edges carry a title saying what
// they mean. Colours and shapes come from the stylesheet (no inline style).
import type { GraphNode } from './lineage-graph.js';
import { nodeLines, type Layout } from './graph-layout.js';

const EDGE_MEANING = {
  parent: 'built on parent artifact',
  claims: 'states',
  derived_from: 'derived from',
  input: 'input',
} as const;

function nodeName(node: GraphNode): string {
  return nodeLines(node).join(', ');
}

function pathOf(points: ReadonlyArray<{ x: number; y: number }>): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
}

export function LineageSvg(props: {
  readonly layout: Layout;
  readonly label: string;
  readonly selected: string | undefined;
  readonly onSelect: (id: string) => void;
}) {
  const { layout } = props;
  const byId = new Map(layout.nodes.map((n) => [n.node.id, n.node]));
  return (
    <div class="graph-wrap">
      <svg
        class="graph"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        height={layout.height}
        role="group"
        aria-label={props.label}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
          </marker>
        </defs>
        {layout.edges.map(({ edge, points }) => (
          <path key={`${edge.from}->${edge.to}`} d={pathOf(points)} class={`edge edge-${edge.kind}`} marker-end="url(#arrow)">
            <title>
              {nodeName(byId.get(edge.from)!)} {EDGE_MEANING[edge.kind]} {nodeName(byId.get(edge.to)!)}
            </title>
          </path>
        ))}
        {layout.nodes.map(({ node, x, y, width, height }) => {
          const select = () => props.onSelect(node.id);
          const classes = ['node', `node-${node.kind}`];
          if (node.kind === 'artifact' && node.stale) classes.push('node-stale');
          if (node.kind === 'memory' && node.statusNow !== 'active') classes.push('node-inactive');
          if (props.selected === node.id) classes.push('node-selected');
          return (
            <g
              key={node.id}
              class={classes.join(' ')}
              transform={`translate(${(x - width / 2).toFixed(1)},${(y - height / 2).toFixed(1)})`}
              // Lower case: in the SVG namespace attribute names keep their case, and only `tabindex` makes the box focusable.
              tabindex={0}
              role="button"
              aria-pressed={props.selected === node.id}
              data-node={node.id}
              onClick={select}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  select();
                }
              }}
            >
              <rect width={width} height={height} rx={6} />
              <text>
                {nodeLines(node).map((line, i) => (
                  // The space between lines makes the box's accessible name read as words.
                  <tspan key={i} x={16} y={10 + 14 + i * 18} class={i === 0 ? 'node-title' : 'node-sub'}>
                    {i > 0 ? ' ' : ''}
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
