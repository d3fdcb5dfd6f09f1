// One deletion receipt: what was erased (ids and counts), who asked and
// why, the verification recorded with it, and running its checks again —
// optionally searching for texts the auditor supplies, sent in the request
// body and cleared from the page once sent.
import { useState } from 'preact/hooks';
import { subjectPath, type Api, type Problem } from '../../api/client.js';
import type { Receipt, Reverification } from '../../api/types.js';
import { ProblemView } from '../../ui/problem-view.js';
import { problemFrom } from '../../ui/use-answer.js';
import { Id, Instant } from '../../ui/values.js';
import { VerificationTable } from './verification-table.js';

function IdList({ ids }: { readonly ids: readonly string[] }) {
  if (ids.length === 0) return <>none</>;
  return (
    <ul class="ids">
      {ids.map((id) => (
        <li key={id}>
          <Id id={id} />
        </li>
      ))}
    </ul>
  );
}

export function ReceiptCard({ api, subject, receipt }: { readonly api: Api; readonly subject: string; readonly receipt: Receipt }) {
  const [searchFor, setSearchFor] = useState('');
  const [rerun, setRerun] = useState<{ result?: Reverification; problem?: Problem; busy: boolean }>({ busy: false });
  const fieldId = `search-${receipt.receiptId}`;
  const verify = async (e: Event) => {
    e.preventDefault();
    const texts = searchFor
      .split('\n')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    // The texts are personal data: they leave the page in the request body only.
    setSearchFor('');
    setRerun({ busy: true });
    try {
      const result = await api.post<Reverification>(subjectPath(subject, `/receipts/${encodeURIComponent(receipt.receiptId)}/verify`), {
        searchFor: texts,
      });
      setRerun({ result, busy: false });
    } catch (error) {
      setRerun({ problem: problemFrom(error), busy: false });
    }
  };
  return (
    <article class="receipt" aria-labelledby={`receipt-${receipt.receiptId}`} data-receipt={receipt.receiptId}>
      <h3 id={`receipt-${receipt.receiptId}`}>
        Receipt <Id id={receipt.receiptId} />
      </h3>
      <dl class="facts">
        <dt>Scope</dt>
        <dd>
          {receipt.scope}
          {receipt.sourceRef ? (
            <>
              {' '}
              (source <code>{receipt.sourceRef}</code>)
            </>
          ) : null}
        </dd>
        <dt>Issued</dt>
        <dd>
          <Instant iso={receipt.issuedAt} />
        </dd>
        <dt>Requested by</dt>
        <dd>
          {receipt.requestedBy ?? 'not recorded'}
          {receipt.requestedAt ? (
            <>
              {' '}
              at <Instant iso={receipt.requestedAt} />
            </>
          ) : null}
        </dd>
        <dt>Reason</dt>
        <dd>{receipt.reason ?? 'none given'}</dd>
        <dt>Memories erased</dt>
        <dd>
          <IdList ids={receipt.memoryIds} />
        </dd>
        <dt>Keys destroyed</dt>
        <dd>{receipt.destroyedKeyIds.length}</dd>
        <dt>Summaries invalidated</dt>
        <dd>
          <IdList ids={receipt.invalidatedArtifactIds} />
        </dd>
        <dt>Canonical / derived records</dt>
        <dd>
          {receipt.canonicalRecords ?? '—'} / {receipt.derivedRecordsInvalidated ?? '—'}
        </dd>
        <dt>Indexes updated, caches invalidated</dt>
        <dd>
          {(receipt.indexesUpdated ?? []).join(', ') || '—'}; {(receipt.cachesInvalidated ?? []).join(', ') || '—'}
        </dd>
      </dl>
      {receipt.verification ? (
        <VerificationTable verification={receipt.verification} caption="Verification recorded with the receipt" />
      ) : (
        <p class="muted">No verification was recorded with this receipt.</p>
      )}
      <form class="verify-form" onSubmit={(e) => void verify(e)}>
        <label for={fieldId}>Also search for (optional, one text per line; sent in the request body, then cleared)</label>
        <textarea
          id={fieldId}
          rows={2}
          value={searchFor}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => setSearchFor((e.target as HTMLTextAreaElement).value)}
        />
        <button type="submit" disabled={rerun.busy}>
          Run the checks again
        </button>
      </form>
      {rerun.busy ? (
        <p role="status" class="loading">
          Running the checks…
        </p>
      ) : null}
      {rerun.problem ? <ProblemView problem={rerun.problem} what="the verification" /> : null}
      {rerun.result ? (
        <div role="status" class="rerun">
          <VerificationTable verification={rerun.result.verification} caption="Checks run again now" />
        </div>
      ) : null}
    </article>
  );
}
