// A command's outcome as an HTTP answer: the result, or its refusal as a problem.
import type { Result } from '../../domain/result/result.js';
import { refusalProblem } from '../problem.js';

export function resultOf<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw refusalProblem(outcome.rejection);
  return outcome.result;
}
