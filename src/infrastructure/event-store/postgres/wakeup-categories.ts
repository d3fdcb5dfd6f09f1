// What a wakeup says it is about: the categories of the streams appended
// since the last NOTIFY, sent as its payload. A filtered subscriber whose
// prefixes none of them could match need not read the log again: a recall
// record (recall-…) does not wake the projectors, which read memory- and
// artifact- streams only. A NOTIFY without a payload (from an older writer,
// or one that appended too many kinds of stream to list) concerns everyone.
import { z } from 'zod';
import type { LogFilter } from '../port.js';

/** Longer payloads are not sent: the wakeup then concerns every subscriber (PostgreSQL allows 8,000 bytes). */
const MAX_PAYLOAD = 1000;

/** A stream's category: its name up to and including the first '-' (`memory-`, `recall-`), the whole name without one. */
export function streamCategory(stream: string): string {
  const dash = stream.indexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash + 1);
}

/** The NOTIFY payload naming these categories; '' (concerns everyone) when they do not fit. */
export function encodeCategories(categories: ReadonlySet<string>): string {
  const payload = JSON.stringify([...categories].sort());
  return payload.length <= MAX_PAYLOAD ? payload : '';
}

const payloadSchema = z.array(z.string());

/** The categories a payload names; undefined when it names none it could be sure of (everyone is concerned). */
export function decodeCategories(payload: string | undefined): ReadonlySet<string> | undefined {
  if (!payload) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const categories = payloadSchema.safeParse(parsed);
  return categories.success ? new Set(categories.data) : undefined;
}

/**
 * Whether appends to streams of these categories could hold an event the filter passes. Only stream prefixes
 * narrow it: a stream `C…` can start with prefix P when P starts with C or C starts with P.
 */
export function mayConcern(categories: ReadonlySet<string> | undefined, filter: LogFilter | undefined): boolean {
  const prefixes = filter?.streamPrefixes;
  if (categories === undefined || !prefixes || prefixes.length === 0) return true;
  for (const category of categories)
    for (const prefix of prefixes) if (prefix.startsWith(category) || category.startsWith(prefix)) return true;
  return false;
}
