// What the API said when it refused or failed, in its own words, with what
// it means for the auditor (a reader key on an auditor view, a wrong key).
import type { Problem } from '../api/client.js';

function meaning(problem: Problem): string {
  if (problem.status === 401) return 'The service did not accept this key (unknown, revoked or mistyped).';
  if (problem.status === 403)
    return 'This view needs a key the API lets read it: an auditor or admin key. The console shows nothing the API refuses.';
  if (problem.status === 404) return 'The API knows nothing by that name for this key’s tenant.';
  if (problem.status === 0) return 'The request did not get an answer.';
  return 'The API could not answer.';
}

export function ProblemView({ problem, what }: { readonly problem: Problem; readonly what: string }) {
  return (
    <div class="problem" role="alert">
      <p class="problem-title">
        {problem.status === 403 ? 'Refused' : 'Could not load'} {what}
      </p>
      <p>{meaning(problem)}</p>
      <p class="problem-detail">
        The API answered {problem.status > 0 ? <code>{problem.status}</code> : null} <code>{problem.code}</code>: {problem.detail}
        {problem.field ? (
          <>
            {' '}
            (field <code>{problem.field}</code>)
          </>
        ) : null}
      </p>
    </div>
  );
}

export function Loading({ what }: { readonly what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}
