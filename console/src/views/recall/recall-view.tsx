// Recall explained: type a question, see what a recall would serve (scores,
// reasons, provenance), what did not fit the budget, and what the hard
// filters left out and why.
import { useEffect, useState } from 'preact/hooks';
import { capabilities, type Capabilities } from '../../api/capabilities.js';
import type { Problem } from '../../api/client.js';
import { ProblemView } from '../../ui/problem-view.js';
import { problemFrom } from '../../ui/use-answer.js';
import { Id, Instant } from '../../ui/values.js';
import type { ViewProps } from '../view-props.js';
import { explainRecall, type Explained, type RecallForm } from './explain-recall.js';
import { filterReasonText } from './filter-reasons.js';
import { RecallItemCard } from './recall-items.js';

const SENSITIVITIES = ['public', 'normal', 'personal', 'confidential', 'restricted'];
const EMPTY: RecallForm = { question: '', budget: '', scopes: '', maxSensitivity: '' };

export function RecallView({ api, subject }: ViewProps) {
  const [form, setForm] = useState<RecallForm>(EMPTY);
  const [caps, setCaps] = useState<Capabilities | undefined>(undefined);
  const [result, setResult] = useState<{ explained?: Explained; problem?: Problem; busy: boolean }>({ busy: false });
  useEffect(() => {
    void capabilities().then(setCaps);
  }, []);
  const field = (name: keyof RecallForm) => (e: Event) => setForm({ ...form, [name]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult({ busy: true });
    try {
      setResult({ explained: await explainRecall(api, subject, form, caps ?? (await capabilities())), busy: false });
    } catch (error) {
      setResult({ problem: problemFrom(error), busy: false });
    }
  };
  return (
    <>
      <form class="recall-form" onSubmit={(e) => void submit(e)} aria-describedby="recall-help">
        <p id="recall-help" class="muted">
          {caps === undefined
            ? 'Reading what this server’s recall takes…'
            : caps.recallQuery
              ? 'This server ranks recall by the question: each item shows its score and reasons.'
              : 'This server’s recall does not rank by a question yet: it answers with what it serves for the subject, in its standing order.'}
        </p>
        <div class="field wide">
          <label for="recall-question">Question</label>
          <input
            id="recall-question"
            type="text"
            value={form.question}
            onInput={field('question')}
            placeholder="How does the customer want to be contacted?"
          />
        </div>
        <div class="field">
          <label for="recall-budget">Token budget</label>
          <input id="recall-budget" type="number" min={1} inputMode="numeric" value={form.budget} onInput={field('budget')} />
        </div>
        <div class="field">
          <label for="recall-scopes">Scopes (name=value, comma separated)</label>
          <input id="recall-scopes" type="text" value={form.scopes} onInput={field('scopes')} placeholder="project=shop-a" />
        </div>
        <div class="field">
          <label for="recall-sensitivity">Sensitivity ceiling</label>
          <select id="recall-sensitivity" value={form.maxSensitivity} onChange={field('maxSensitivity')}>
            <option value="">the API’s default</option>
            {SENSITIVITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={result.busy}>
          Explain recall
        </button>
      </form>
      {result.busy ? (
        <p role="status" class="loading">
          Asking recall…
        </p>
      ) : null}
      {result.problem ? <ProblemView problem={result.problem} what="recall" /> : null}
      {result.explained ? <Explanation explained={result.explained} /> : null}
    </>
  );
}

function Explanation({ explained }: { readonly explained: Explained }) {
  const { answer } = explained;
  const excluded = Object.entries(answer.excluded).filter(([, n]) => n > 0);
  return (
    <section aria-labelledby="recall-answer-heading" id="recall-answer">
      <h3 id="recall-answer-heading">What recall would serve</h3>
      {explained.note ? (
        <p class="note" role="note">
          {explained.note}
        </p>
      ) : null}
      <p role="status">
        From <strong>{answer.source === 'summary' ? 'the published summary' : 'raw entries'}</strong> ({answer.reason}
        {answer.alias ? (
          <>
            ; alias <Id id={answer.alias.artifactId} />
          </>
        ) : null}
        ): {answer.message}.
        <br />
        As of <Instant iso={answer.now} />: {answer.items.length} items, {answer.budget.used} tokens
        {answer.budget.limit !== null ? ` of ${answer.budget.limit}` : ''}
        {answer.budget.overBudget ? ' (over budget: open conflicts are never left out)' : ''}.
      </p>
      <ol class="recall-items">
        {answer.items.map((item) => (
          <RecallItemCard key={`${item.type}:${item.priority}`} item={item} />
        ))}
      </ol>
      <h4>Left out for the budget</h4>
      {answer.omitted.length === 0 ? (
        <p class="muted">Nothing: every ranked item fit.</p>
      ) : (
        <ul>
          {answer.omitted.map((o) => (
            <li key={o.ref}>
              #{o.priority} {o.type} <Id id={o.ref} /> ({o.tokens} tokens)
            </li>
          ))}
        </ul>
      )}
      <h4>Left out by the hard filters</h4>
      {excluded.length === 0 ? (
        <p class="muted" id="excluded-none">
          No active entry was filtered out.
        </p>
      ) : (
        <table id="excluded">
          <caption>Active entries the hard filters left out, by reason</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Entries</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {excluded.map(([reason, n]) => (
              <tr key={reason}>
                <th scope="row">
                  <code>{reason}</code>
                </th>
                <td>{n}</td>
                <td>{filterReasonText(reason)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="muted">
        Retracted, superseded, erased and archived entries are never candidates, so they are not counted here (the timeline shows them).{' '}
        {answer.notice}
      </p>
    </section>
  );
}
