// A command's outcome as an HTTP answer: the result, or its refusal as a problem.
import type { CommandOutcome } from '../../commands/subject/execute.js';
import { refusalProblem } from '../problem.js';

export function resultOf<R>(outcome: CommandOutcome<R>): R {
  if (!outcome.ok) throw refusalProblem(outcome.rejection);
  return outcome.result;
}
