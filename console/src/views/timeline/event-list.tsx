// The subject stream in order; the events committed after T are marked as
// not yet known at T. Each can set T to just after itself.
import type { DecodedEvent } from '../../api/types.js';
import { Instant } from '../../ui/values.js';
import { describeEvent } from './event-summary.js';

export function EventList(props: {
  readonly events: readonly DecodedEvent[];
  readonly position: number;
  readonly onPick: (index: number) => void;
}) {
  return (
    <ol class="events">
      {props.events.map((e, i) => {
        const later = i > props.position;
        return (
          <li key={e.id} class={later ? 'event later' : i === props.position ? 'event current' : 'event'} data-type={e.type}>
            <div class="event-line">
              <span class="rev">#{e.revision}</span> <Instant iso={e.recordedAt} /> <strong>{e.type}</strong>
              {later ? <span class="badge">after T</span> : null}
              <button type="button" class="small" onClick={() => props.onPick(i)} aria-label={`T here: just after event ${e.revision}`}>
                T here
              </button>
            </div>
            <p class="event-text">{describeEvent(e)}</p>
            <details>
              <summary>Decoded event #{e.revision}</summary>
              <pre>{JSON.stringify(e.data, null, 2)}</pre>
            </details>
          </li>
        );
      })}
    </ol>
  );
}
