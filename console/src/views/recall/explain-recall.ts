// Asks recall the way an agent would, with the question when this server's
// recall takes one (issue 16's `query`, detected from /openapi.json), and
// says so when it does not: the answer is then what recall serves whatever
// the question.
import { ApiProblem, subjectPath, type Api } from '../../api/client.js';
import type { Capabilities } from '../../api/capabilities.js';
import type { RecallAnswer } from '../../api/types.js';

export interface RecallForm {
  readonly question: string;
  readonly budget: string;
  /** `project=shop-a, thread=t9` */
  readonly scopes: string;
  readonly maxSensitivity: string;
}

export interface Explained {
  readonly answer: RecallAnswer;
  /** The question was sent and the server used it. */
  readonly questionUsed: boolean;
  readonly note?: string;
}

export const NO_QUERY_NOTE =
  'This server’s recall does not take a question: the items below are what recall serves for this subject whatever is asked, in its standing order.';

/** `a=b, c=d` -> { 'scope.a': 'b', 'scope.c': 'd' }; a part without `=` names the field at fault. */
export function scopeParameters(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at <= 0)
      throw new ApiProblem({ status: 400, code: 'invalid_input', detail: `scope "${part}" must be name=value`, field: 'scopes' });
    out[`scope.${part.slice(0, at).trim()}`] = part.slice(at + 1).trim();
  }
  return out;
}

export async function explainRecall(api: Api, subject: string, form: RecallForm, caps: Capabilities): Promise<Explained> {
  const path = subjectPath(subject, '/recall');
  const query = {
    ...scopeParameters(form.scopes),
    ...(form.budget.trim() ? { budget: form.budget.trim() } : {}),
    ...(form.maxSensitivity ? { maxSensitivity: form.maxSensitivity } : {}),
  };
  const question = form.question.trim();
  if (question && caps.recallQuery) {
    try {
      return { answer: await api.get<RecallAnswer>(path, { ...query, query: question }), questionUsed: true };
    } catch (error) {
      // Listed but refused (a server between versions): fall back to the plain recall, and say so.
      if (!(error instanceof ApiProblem && error.problem.status === 400 && error.problem.field === 'query')) throw error;
    }
  }
  const answer = await api.get<RecallAnswer>(path, query);
  return question ? { answer, questionUsed: false, note: NO_QUERY_NOTE } : { answer, questionUsed: false };
}
