// One recalled item as an auditor reads it: the text an agent would be
// given, its place and tokens, why it stands where it does (the retrieval
// score and reasons when the server ranks by a question), and where it came
// from.
import type { Provenance, RecallItem } from '../../api/types.js';
import { Id, Instant, valueText } from '../../ui/values.js';

function ProvenanceLine({ p }: { readonly p: Provenance }) {
  return (
    <li>
      <Id id={p.memoryId} /> v{p.version} (sequence {p.sequence}) — {p.source.type}, trust {p.trust}; refs{' '}
      {p.source.refs.join(', ') || 'none'}; recorded <Instant iso={p.recordedAt} /> by {p.recordedBy.type}
    </li>
  );
}

function standing(item: RecallItem): string {
  switch (item.type) {
    case 'conflict':
      return 'Open conflicts always come first and are never left out for the budget.';
    case 'memory':
      return `Ordered by kind (${item.kind}), trust (${item.provenance.trust}), confidence (${item.confidence ?? 'not given'}), then recency (sequence ${item.provenance.sequence}).`;
    case 'claim':
    case 'open_item':
      return `A summary ${item.type === 'claim' ? 'claim' : 'open item'}, ordered by its sources' kind, trust, confidence and recency.`;
  }
}

function Sources({ item }: { readonly item: RecallItem }) {
  switch (item.type) {
    case 'memory':
      return (
        <ul class="provenance">
          <ProvenanceLine p={item.provenance} />
        </ul>
      );
    case 'claim':
    case 'open_item':
      return (
        <>
          <p>
            From summary <Id id={item.provenance.artifactId} />, derived from:
          </p>
          <ul class="provenance">
            {item.provenance.derivedFrom.map((p) => (
              <ProvenanceLine key={p.memoryId} p={p} />
            ))}
          </ul>
        </>
      );
    case 'conflict':
      return (
        <ul class="provenance">
          {item.sides.map((side) =>
            'withheld' in side ? (
              <li key={side.memoryId}>
                <Id id={side.memoryId} />: withheld ({side.withheld})
              </li>
            ) : (
              <li key={side.memoryId}>
                {side.polarity === 'negated' ? 'NOT ' : ''}
                {valueText(side.value)} — <Id id={side.memoryId} /> v{side.provenance.version}, {side.provenance.source.type}, refs{' '}
                {side.provenance.source.refs.join(', ')}
              </li>
            ),
          )}
        </ul>
      );
  }
}

export function RecallItemCard({ item }: { readonly item: RecallItem }) {
  const title = item.type === 'open_item' ? 'open item' : `${item.type}: ${item.key}`;
  return (
    <li class={`recall-item recall-${item.type}`}>
      <h4>
        #{item.priority} {title} <span class="muted">({item.tokens} tokens)</span>
      </h4>
      <p class="item-text">{item.text}</p>
      {item.retrieval ? (
        <div class="retrieval">
          <p>
            Retrieval score <strong>{item.retrieval.score.toFixed(3)}</strong>, rank {item.retrieval.rank}
          </p>
          <ul>
            {item.retrieval.reasons.map((r, i) => (
              <li key={i}>
                {r.code}
                {r.contribution !== 0 ? ` (${r.contribution > 0 ? '+' : ''}${r.contribution.toFixed(3)})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p class="standing">{standing(item)}</p>
      )}
      <div class="sources">
        <p class="sources-title">Provenance</p>
        <Sources item={item} />
      </div>
    </li>
  );
}
