// Erasure: the subject's deletion receipts with their verification, each of
// which can be run again.
import { subjectPath } from '../../api/client.js';
import type { SubjectReceipts } from '../../api/types.js';
import { Loading, ProblemView } from '../../ui/problem-view.js';
import { useAnswer } from '../../ui/use-answer.js';
import type { ViewProps } from '../view-props.js';
import { ReceiptCard } from './receipt-card.js';

export function ErasureView({ api, subject }: ViewProps) {
  const answer = useAnswer(() => api.get<SubjectReceipts>(subjectPath(subject, '/receipts')), [api, subject]);
  if (answer.state === 'failed') return <ProblemView problem={answer.problem} what="the deletion receipts" />;
  if (answer.state !== 'ok') return <Loading what="the deletion receipts" />;
  const { receipts } = answer.value;
  if (receipts.length === 0) return <p>No deletion receipt: nothing of this subject was erased.</p>;
  return (
    <>
      <p>
        {receipts.length} deletion receipt{receipts.length === 1 ? '' : 's'}, oldest first. A receipt lists ids and counts, never what was
        erased.
      </p>
      {receipts.map((r) => (
        <ReceiptCard key={r.receiptId} api={api} subject={subject} receipt={r} />
      ))}
    </>
  );
}
