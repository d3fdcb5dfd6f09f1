// How a read-side command runs: validate first (bad input opens nothing), then
// open the read side, catch the projections up (through the streams the
// answer must reflect, or every event committed before the command) and answer.
import { catchUpCommitted, catchUpWith, openReadSide, type OpenReadSide } from '../queries/read-side.js';
import { run } from './session.js';

export interface ReadOptions<T> {
  readonly tokenizer?: boolean;
  /** The streams the answer must reflect (read your own writes); absent: every event committed before the command. */
  readonly streams?: (read: OpenReadSide, input: T) => Promise<readonly string[]> | readonly string[];
}

/** Validates first (bad input opens nothing), then opens the read side, catches the projections up and answers. */
export function withReadSide<T>(
  validate: () => T,
  answer: (read: OpenReadSide, input: T) => Promise<unknown>,
  options: ReadOptions<T> = {},
): Promise<void> {
  return run(async (ledger) => {
    const input = validate();
    const read = await openReadSide(await ledger(), { tokenizer: options.tokenizer ?? false });
    try {
      if (options.streams) await catchUpWith(read, await options.streams(read, input));
      else await catchUpCommitted(read);
      return await answer(read, input);
    } finally {
      await read.close();
    }
  });
}
