// Memory keys name a slot (e.g. `notification.preference`): dot-separated
// segments of letters, digits, `_` and `-`. Keys are case-sensitive.
import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';

export const MAX_KEY_LENGTH = 200;
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)*$/;
const KEY_RULE =
  'must be dot-separated segments of letters, digits, _ and -, each starting with a letter or digit, e.g. "notification.preference"';

export const memoryKeySchema = z
  .string({ error: fieldMessage('must be a string') })
  .max(MAX_KEY_LENGTH, { error: `must be at most ${MAX_KEY_LENGTH} characters` })
  .regex(KEY, { error: KEY_RULE });
