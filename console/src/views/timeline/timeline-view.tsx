// Subject timeline: the decoded stream, a slider over system time T and one
// over valid time V; at each position, what the system believed (as-of, from
// memory_versions) beside what replay computes from the stream, and whether
// the two agree.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { subjectPath } from '../../api/client.js';
import type { BeliefAnswer, DecodedEvent } from '../../api/types.js';
import { Loading, ProblemView } from '../../ui/problem-view.js';
import { useAnswer } from '../../ui/use-answer.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { Instant } from '../../ui/values.js';
import type { ViewProps } from '../view-props.js';
import { compareBeliefs } from './agreement.js';
import { BeliefsTable } from './beliefs-table.js';
import { EventList } from './event-list.js';
import { markAtOrBefore, systemTimes, validTimes } from './time-marks.js';

export function TimelineView({ api, subject }: ViewProps) {
  const events = useAnswer(() => api.get<DecodedEvent[]>(subjectPath(subject, '/events')), [api, subject]);
  if (events.state === 'failed') return <ProblemView problem={events.problem} what="the subject's events" />;
  if (events.state !== 'ok') return <Loading what="the subject's events" />;
  if (events.value.length === 0) return <p>The subject stream has no events.</p>;
  return <Timeline api={api} subject={subject} events={events.value} />;
}

function Timeline({ api, subject, events }: ViewProps & { readonly events: readonly DecodedEvent[] }) {
  const tMarks = useMemo(() => systemTimes(events), [events]);
  const vMarks = useMemo(() => validTimes(events), [events]);
  const [tIndex, setTIndex] = useState(tMarks.length - 1);
  const [vFollows, setVFollows] = useState(true);
  const [vIndex, setVIndex] = useState(vMarks.length - 1);
  const T = tMarks[tIndex]!;
  useEffect(() => {
    if (vFollows) setVIndex(markAtOrBefore(vMarks, T));
  }, [vFollows, T, vMarks]);
  const V = vFollows ? T : vMarks[vIndex]!;
  const at = useDebounced({ T, V }, 150);
  const beliefs = useAnswer(
    () =>
      Promise.all([
        api.get<BeliefAnswer>(subjectPath(subject, '/as-of'), { systemTime: at.T, validTime: at.V }),
        api.get<BeliefAnswer>(subjectPath(subject, '/replay'), { at: at.T, validTime: at.V }),
      ]),
    [api, subject, at.T, at.V],
  );
  const event = events[tIndex]!;
  const settled = at.T === T && at.V === V;

  return (
    <>
      <fieldset class="time-controls">
        <legend>Position in time</legend>
        <Slider
          id="system-time"
          label="System time T (what had been committed)"
          count={tMarks.length}
          index={tIndex}
          valueText={`${T}, just after event ${event.revision}, ${event.type}`}
          onChange={setTIndex}
        >
          T = <Instant iso={T} /> — just after event #{event.revision} {event.type}
        </Slider>
        <label class="check">
          <input type="checkbox" checked={vFollows} onChange={(e) => setVFollows((e.target as HTMLInputElement).checked)} /> Valid time V
          follows T (ask about the moment itself)
        </label>
        <Slider
          id="valid-time"
          label="Valid time V (the business time asked about)"
          count={vMarks.length}
          index={vIndex}
          valueText={V}
          disabled={vFollows}
          onChange={setVIndex}
        >
          V = <Instant iso={V} />
        </Slider>
      </fieldset>

      {beliefs.state === 'failed' ? <ProblemView problem={beliefs.problem} what="as-of and replay" /> : null}
      {beliefs.state === 'ok' && settled ? (
        <Beliefs asOf={beliefs.value[0]} replay={beliefs.value[1]} />
      ) : beliefs.state !== 'failed' ? (
        <Loading what="as-of and replay" />
      ) : null}

      <section aria-labelledby="events-heading">
        <h3 id="events-heading">Events of the subject stream ({events.length})</h3>
        <EventList events={events} position={tIndex} onPick={setTIndex} />
      </section>
    </>
  );
}

/** A range over positions 0..count-1; `children` says where it stands (also read out as the slider's value). */
function Slider(props: {
  readonly id: string;
  readonly label: string;
  readonly count: number;
  readonly index: number;
  readonly valueText: string;
  readonly disabled?: boolean;
  readonly onChange: (index: number) => void;
  readonly children: ComponentChildren;
}) {
  return (
    <div class="slider">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="range"
        min={0}
        max={props.count - 1}
        step={1}
        value={props.index}
        disabled={props.disabled ?? false}
        aria-valuetext={props.valueText}
        onInput={(e) => props.onChange(Number((e.target as HTMLInputElement).value))}
      />
      <output for={props.id} id={`${props.id}-value`}>
        {props.children}
      </output>
    </div>
  );
}

function Beliefs({ asOf, replay }: { readonly asOf: BeliefAnswer; readonly replay: BeliefAnswer }) {
  const agreement = compareBeliefs(asOf.beliefs, replay.beliefs);
  return (
    <>
      <p class={agreement.agree ? 'agreement agree' : 'agreement disagree'} role="status" id="agreement">
        {agreement.agree
          ? `As-of and replay agree: ${asOf.beliefs.length} beliefs.`
          : `As-of and replay DISAGREE: only in as-of ${agreement.onlyAsOf.join(', ') || 'none'}; only in replay ${agreement.onlyReplay.join(', ') || 'none'}; different ${agreement.differing.join(', ') || 'none'}.`}
      </p>
      <div class="side-by-side">
        <section aria-labelledby="as-of-heading" id="as-of">
          <h3 id="as-of-heading">What the system believed (as-of, from memory_versions)</h3>
          <BeliefsTable answer={asOf} caption="Beliefs as of T about V, from the projection" />
        </section>
        <section aria-labelledby="replay-heading" id="replay">
          <h3 id="replay-heading">What replay computes (from the event stream alone)</h3>
          <BeliefsTable answer={replay} caption="Beliefs at T about V, replayed from the stream" />
        </section>
      </div>
    </>
  );
}
