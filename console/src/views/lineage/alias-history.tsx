// Which artifact the subject's read alias pointed at when: one row per
// SummaryAliasSwitched event, served until the next switch; an artifact
// that is STALE now is marked (recall serves raw entries instead of it).
import type { DecodedEvent, StaleSet } from '../../api/types.js';
import { Id, Instant } from '../../ui/values.js';
import { ScrollBox } from '../../ui/scroll-box.js';

export interface AliasPeriod {
  readonly artifactId: string;
  readonly from: string;
  readonly until: string | null;
  readonly sourceEpoch: number;
  readonly coversThrough: number;
  readonly revision: number;
}

export function aliasHistory(events: readonly DecodedEvent[]): AliasPeriod[] {
  const switches = events.filter((e) => e.type === 'SummaryAliasSwitched');
  return switches.map((e, i) => ({
    artifactId: String(e.data.artifactId),
    from: e.recordedAt,
    until: switches[i + 1]?.recordedAt ?? null,
    sourceEpoch: Number(e.data.sourceEpoch),
    coversThrough: Number(e.data.coversThrough),
    revision: e.revision,
  }));
}

export function AliasHistory(props: {
  readonly periods: readonly AliasPeriod[];
  readonly stale: StaleSet;
  readonly onOpen: (artifactId: string) => void;
}) {
  if (props.periods.length === 0) return <p class="muted">No summary was ever published for this subject: recall serves raw entries.</p>;
  const staleById = new Map(props.stale.stale.map((s) => [s.artifactId, s]));
  return (
    <ScrollBox label={'Alias history'}>
      <table id="alias-history">
        <caption>The read alias over time (from the subject's SummaryAliasSwitched events)</caption>
        <thead>
          <tr>
            <th scope="col">Served from</th>
            <th scope="col">Until</th>
            <th scope="col">Artifact</th>
            <th scope="col">Epoch / covers through</th>
            <th scope="col">Now</th>
            <th scope="col">
              <span class="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.periods.map((p) => {
            const stale = staleById.get(p.artifactId);
            return (
              <tr key={p.revision}>
                <td>
                  <Instant iso={p.from} /> (event #{p.revision})
                </td>
                <td>{p.until ? <Instant iso={p.until} /> : 'now (the alias points here)'}</td>
                <th scope="row">
                  <Id id={p.artifactId} />
                </th>
                <td>
                  {p.sourceEpoch} / {p.coversThrough}
                </td>
                <td>
                  {stale ? (
                    <span class="badge badge-stale">
                      STALE since <Instant iso={stale.causeAt} /> ({stale.causeType})
                    </span>
                  ) : (
                    'not STALE'
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    class="small"
                    onClick={() => props.onOpen(p.artifactId)}
                    aria-label={`Show the lineage of ${p.artifactId}`}
                  >
                    Lineage
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
