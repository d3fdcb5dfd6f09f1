// An erasure's verification: per read path, what was searched and what
// still held the content — counts and paths only, never the content.
import type { Verification } from '../../api/types.js';
import { Instant } from '../../ui/values.js';
import { ScrollBox } from '../../ui/scroll-box.js';

export function VerificationTable({ verification, caption }: { readonly verification: Verification; readonly caption: string }) {
  return (
    <ScrollBox label={caption}>
      <table class="verification">
        <caption>
          {caption}: <span class={`badge badge-${verification.status}`}>{verification.status}</span> at{' '}
          <Instant iso={verification.verifiedAt} />; searched for {verification.searchedFor.join(', ') || 'nothing'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Read path</th>
            <th scope="col">Check</th>
            <th scope="col">Searched</th>
            <th scope="col">Findings</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {verification.checks.map((c) => (
            <tr key={c.path} class={c.status === 'failed' ? 'failed' : undefined}>
              <th scope="row">
                <code>{c.path}</code>
              </th>
              <td>
                <span class={`badge badge-${c.status}`}>{c.status}</span>
              </td>
              <td>{c.searched}</td>
              <td>{c.findings}</td>
              <td>{c.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
