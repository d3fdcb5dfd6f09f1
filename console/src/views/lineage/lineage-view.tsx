// Lineage: the subject's alias history (which artifact served when), and for
// one artifact the graph of claims -> memory versions and artifact -> parent
// artifact, STALE artifacts and their cause marked, with a PROV-JSON download.
import { useMemo, useState } from 'preact/hooks';
import { artifactPath, subjectPath, type Api } from '../../api/client.js';
import type { DecodedEvent, Lineage, StaleSet } from '../../api/types.js';
import { Loading, ProblemView } from '../../ui/problem-view.js';
import { problemFrom, useAnswer } from '../../ui/use-answer.js';
import type { Problem } from '../../api/client.js';
import type { ViewProps } from '../view-props.js';
import { AliasHistory, aliasHistory } from './alias-history.js';
import { layoutGraph } from './graph-layout.js';
import { InputsTable, NodeDetails, StaleCause } from './lineage-details.js';
import { lineageGraph } from './lineage-graph.js';
import { LineageSvg } from './lineage-svg.js';
import { downloadProvJson } from './prov-download.js';

export function LineageView(props: ViewProps & { readonly artifact: string | undefined; readonly onArtifact: (id: string) => void }) {
  const { api, subject } = props;
  const context = useAnswer(
    () => Promise.all([api.get<StaleSet>(subjectPath(subject, '/stale')), api.get<DecodedEvent[]>(subjectPath(subject, '/events'))]),
    [api, subject],
  );
  const [typed, setTyped] = useState('');
  if (context.state === 'failed') return <ProblemView problem={context.problem} what="the subject's summaries" />;
  if (context.state !== 'ok') return <Loading what="the subject's summaries" />;
  const [stale, events] = context.value;
  const periods = aliasHistory(events);
  const keys = memoryKeys(events);
  const chosen = props.artifact ?? stale.alias?.artifactId ?? periods.at(-1)?.artifactId;
  return (
    <>
      <section aria-labelledby="alias-heading">
        <h3 id="alias-heading">Alias history: which summary served when</h3>
        <AliasHistory periods={periods} stale={stale} onOpen={props.onArtifact} />
      </section>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) props.onArtifact(typed.trim());
        }}
      >
        <label for="artifact-id">Artifact id</label>
        <input
          id="artifact-id"
          type="text"
          value={typed}
          placeholder={chosen ?? ''}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Show lineage</button>
      </form>
      {chosen ? (
        <ArtifactLineage api={api} artifactId={chosen} keys={keys} onOpen={props.onArtifact} />
      ) : (
        <p>This subject has no summary artifact yet.</p>
      )}
    </>
  );
}

/** Memory id -> key, from the subject's MemoryRecorded events. */
function memoryKeys(events: readonly DecodedEvent[]): Map<string, string> {
  return new Map(events.flatMap((e) => (e.type === 'MemoryRecorded' ? [[String(e.data.memoryId), String(e.data.key)] as const] : [])));
}

interface DrawingProps {
  readonly api: Api;
  readonly keys: ReadonlyMap<string, string>;
  readonly onOpen: (id: string) => void;
}

function ArtifactLineage({ api, artifactId, keys, onOpen }: DrawingProps & { readonly artifactId: string }) {
  const answer = useAnswer(() => api.get<Lineage>(artifactPath(artifactId, '/lineage')), [api, artifactId]);
  if (answer.state === 'failed') return <ProblemView problem={answer.problem} what={`the lineage of ${artifactId}`} />;
  if (answer.state !== 'ok') return <Loading what="the lineage" />;
  return <LineageDrawing api={api} lineage={answer.value} keys={keys} onOpen={onOpen} />;
}

function LineageDrawing({ api, lineage, keys, onOpen }: DrawingProps & { readonly lineage: Lineage }) {
  const [ancestorClaims, setAncestorClaims] = useState(false);
  const graph = useMemo(() => lineageGraph(lineage, keys, { ancestorClaims }), [lineage, keys, ancestorClaims]);
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [downloadProblem, setDownloadProblem] = useState<Problem | undefined>(undefined);
  const root = lineage.artifacts[0]!;
  const node = graph.nodes.find((n) => n.id === selected);
  return (
    <section aria-labelledby="lineage-heading" id="lineage">
      <h3 id="lineage-heading">
        Lineage of <code class="id">{lineage.artifactId}</code>
      </h3>
      <StaleCause artifact={root} />
      <p>
        <button
          type="button"
          onClick={() => {
            setDownloadProblem(undefined);
            downloadProvJson(api, lineage.artifactId).catch((error: unknown) => setDownloadProblem(problemFrom(error)));
          }}
        >
          Download PROV-JSON
        </button>
      </p>
      {downloadProblem ? <ProblemView problem={downloadProblem} what="the PROV-JSON document" /> : null}
      <p class="legend" id="graph-legend">
        Arrows read “is built on”: artifact → parent artifact, artifact → its claims, claim → the memory versions it derives from; inputs no
        readable claim cites hang from the artifact. <span class="key key-stale">STALE artifact</span>{' '}
        <span class="key key-inactive">memory no longer active</span>. Tab to a box, Enter to see what it is.
      </p>
      {lineage.artifacts.length > 1 ? (
        <label class="check">
          <input type="checkbox" checked={ancestorClaims} onChange={(e) => setAncestorClaims((e.target as HTMLInputElement).checked)} />{' '}
          Draw the claims of the parent artifacts too
        </label>
      ) : null}
      <LineageSvg layout={layout} label={`Lineage graph of ${lineage.artifactId}`} selected={selected} onSelect={setSelected} />
      <div class="node-details" aria-live="polite">
        {node ? <NodeDetails node={node} onOpen={onOpen} /> : <p class="muted">No box selected.</p>}
      </div>
      {lineage.artifacts.map((a) => (
        <InputsTable key={a.artifactId} artifact={a} keys={keys} />
      ))}
    </section>
  );
}
