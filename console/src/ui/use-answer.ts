// One API answer a view waits for: loading, the value, or the API's problem.
// A newer request makes an older one's late answer irrelevant (it is dropped).
import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, type Problem } from '../api/client.js';

export type Answer<T> =
  | { readonly state: 'idle' }
  | { readonly state: 'loading' }
  | { readonly state: 'ok'; readonly value: T }
  | { readonly state: 'failed'; readonly problem: Problem };

export function problemFrom(error: unknown): Problem {
  return error instanceof ApiProblem ? error.problem : { status: 0, code: 'console_error', detail: String(error) };
}

/** Runs `load` whenever `deps` change (not at all while `load` is undefined). */
export function useAnswer<T>(load: (() => Promise<T>) | undefined, deps: readonly unknown[]): Answer<T> {
  const [answer, setAnswer] = useState<Answer<T>>({ state: 'idle' });
  useEffect(() => {
    if (!load) {
      setAnswer({ state: 'idle' });
      return;
    }
    let current = true;
    setAnswer({ state: 'loading' });
    load().then(
      (value) => current && setAnswer({ state: 'ok', value }),
      (error: unknown) => current && setAnswer({ state: 'failed', problem: problemFrom(error) }),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on.
  }, deps);
  return answer;
}
