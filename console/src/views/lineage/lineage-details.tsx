// What one graph node is, in words; and every artifact's inputs as a table
// (the graph's text alternative).
import type { LineageArtifact } from '../../api/types.js';
import { Id, Instant } from '../../ui/values.js';
import type { GraphNode } from './lineage-graph.js';
import { ScrollBox } from '../../ui/scroll-box.js';

export function StaleCause({ artifact }: { readonly artifact: LineageArtifact }) {
  const s = artifact.stale;
  if (!s) return null;
  return (
    <p class="stale-cause">
      <strong>STALE</strong> since <Instant iso={s.causeAt} />: {s.causeType}
      {s.causeMemoryId ? (
        <>
          {' '}
          of memory <Id id={s.causeMemoryId} />
        </>
      ) : null}
      {s.viaArtifactId ? (
        <>
          , inherited through <Id id={s.viaArtifactId} />
        </>
      ) : null}{' '}
      (event <Id id={s.causeEventId} />)
    </p>
  );
}

export function NodeDetails({ node, onOpen }: { readonly node: GraphNode; readonly onOpen: (artifactId: string) => void }) {
  switch (node.kind) {
    case 'artifact': {
      const a = node.artifact;
      return (
        <dl class="facts">
          <dt>Artifact</dt>
          <dd>
            <Id id={a.artifactId} />
          </dd>
          <dt>Status</dt>
          <dd>{a.status}</dd>
          <dt>Input epoch / covers through</dt>
          <dd>
            {a.inputEpoch ?? '—'} / {a.newCoversThrough ?? '—'}
          </dd>
          <dt>Generated / published</dt>
          <dd>
            <Instant iso={a.generatedAt} /> / <Instant iso={a.publishedAt} />
          </dd>
          <dt>Output</dt>
          <dd>
            {a.output.status === 'readable'
              ? `${a.output.claims.length} claims, ${a.output.openItems.length} open items`
              : 'keys destroyed: claims can no longer be read'}
          </dd>
          <dt>Parent</dt>
          <dd>
            {a.parentArtifactId ? (
              <button type="button" class="link" onClick={() => onOpen(a.parentArtifactId!)}>
                {a.parentArtifactId}
              </button>
            ) : (
              'none'
            )}
          </dd>
          {a.stale ? (
            <>
              <dt>STALE</dt>
              <dd>
                <StaleCause artifact={a} />
              </dd>
            </>
          ) : null}
        </dl>
      );
    }
    case 'claim':
      return (
        <p>
          Claim about <code>{node.label}</code> ({node.polarity}) in <Id id={node.artifactId} />. Its text is the summary’s: recall shows it
          while the summary is current.
        </p>
      );
    case 'open_item':
      return (
        <p>
          {node.label} of <Id id={node.artifactId} />.
        </p>
      );
    case 'memory':
      return (
        <dl class="facts">
          <dt>Key</dt>
          <dd>{node.key ?? 'not in this subject’s events'}</dd>
          <dt>Memory version</dt>
          <dd>
            <Id id={node.memoryId} /> v{node.version ?? '?'}
          </dd>
          <dt>Status now</dt>
          <dd>{node.statusNow ?? 'unknown'}</dd>
          <dt>Invalidated by</dt>
          <dd>{node.invalidatedBy ?? 'nothing: still the current version'}</dd>
        </dl>
      );
  }
}

export function InputsTable({ artifact, keys }: { readonly artifact: LineageArtifact; readonly keys: ReadonlyMap<string, string> }) {
  return (
    <ScrollBox label={`Inputs of ${artifact.artifactId}`}>
      <table class="inputs" data-artifact={artifact.artifactId}>
        <caption>
          Inputs of <Id id={artifact.artifactId} /> ({artifact.inputs.length} memory versions)
        </caption>
        <thead>
          <tr>
            <th scope="col">Memory</th>
            <th scope="col">Key</th>
            <th scope="col">Version</th>
            <th scope="col">Sequence</th>
            <th scope="col">Status now</th>
            <th scope="col">Invalidated by</th>
          </tr>
        </thead>
        <tbody>
          {artifact.inputs.map((i) => (
            <tr key={`${i.memoryId}/${i.version}`}>
              <th scope="row">
                <Id id={i.memoryId} />
              </th>
              <td>{keys.get(i.memoryId) ?? '—'}</td>
              <td>v{i.version}</td>
              <td>{i.sequence ?? '—'}</td>
              <td>{i.statusNow ?? 'unknown'}</td>
              <td>
                {i.invalidatedBy ? (
                  <>
                    {i.invalidatedBy.type} at <Instant iso={i.invalidatedBy.at} />
                  </>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
