// One answer about (T, V): the beliefs, as a table.
import type { BeliefAnswer } from '../../api/types.js';
import { Id, Instant, PersonalValue } from '../../ui/values.js';
import { ScrollBox } from '../../ui/scroll-box.js';

export function BeliefsTable({ answer, caption }: { readonly answer: BeliefAnswer; readonly caption: string }) {
  if (answer.beliefs.length === 0) return <p class="muted">No belief about this valid time at this system time.</p>;
  return (
    <ScrollBox label={caption}>
      <table class="beliefs">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Key and memory</th>
            <th scope="col">Value</th>
            <th scope="col">Status</th>
            <th scope="col">Valid from</th>
            <th scope="col">Valid to</th>
            <th scope="col">Recorded</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {answer.beliefs.map((b) => (
            <tr key={`${b.memoryId}/${b.version}`} data-key={b.key}>
              <th scope="row">
                {b.key}
                <br />
                <span class="muted">
                  <Id id={b.memoryId} /> v{b.version}
                </span>
              </th>
              <td>
                <PersonalValue personal={b.personal} polarity={b.polarity} />
              </td>
              <td>{b.status}</td>
              <td>
                <Instant iso={b.validFrom} />
              </td>
              <td>{b.validTo ? <Instant iso={b.validTo} /> : 'open'}</td>
              <td>
                <Instant iso={b.recordedAt} />
              </td>
              <td>
                {b.source.type}
                <br />
                <span class="muted">{b.source.refs.join(', ')}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
