// Scopes narrow where an entry applies. Entries with the same key but
// different scopes are different slots: they never duplicate, supersede or
// conflict with each other.
import { z } from 'zod';
import { canonicalJson } from '../canonical/canonical-json.js';
import { fieldMessage } from '../validation/invalid-input.js';

const SCOPE_VALUE = /^[^\s\p{Cc}/]{1,128}$/u;
const scopeValue = z
  .string({ error: fieldMessage('must be a string') })
  .regex(SCOPE_VALUE, { error: 'must be 1-128 characters without whitespace or /' });

export const scopesSchema = z.strictObject(
  { team: scopeValue.optional(), project: scopeValue.optional(), thread: scopeValue.optional(), agent: scopeValue.optional() },
  { error: 'must be an object with optional team, project, thread and agent' },
);
export type Scopes = z.output<typeof scopesSchema>;

/** Drops absent scopes, so `{}` and `{project: undefined}` name the same slot. */
export function normaliseScopes(scopes: Scopes | undefined): Scopes {
  const out: { team?: string; project?: string; thread?: string; agent?: string } = {};
  if (scopes?.team !== undefined) out.team = scopes.team;
  if (scopes?.project !== undefined) out.project = scopes.project;
  if (scopes?.thread !== undefined) out.thread = scopes.thread;
  if (scopes?.agent !== undefined) out.agent = scopes.agent;
  return out;
}

/** The slot an entry competes in: its key and its scopes. */
export function slotOf(key: string, scopes: Scopes): string {
  return `${key}\u0000${canonicalJson(normaliseScopes(scopes))}`;
}
