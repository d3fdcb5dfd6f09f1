// Which events of $all a reader of the port sees: only the store's own
// streams (its scope: memledger's stream prefixes), never system events,
// and of those the stream / event-type prefixes asked for. A shared
// cluster's $all also holds other applications' streams, often binary or
// JSON without memledger's metadata; they are filtered out by the server
// where it can, and skipped on arrival (never decoded) where it cannot.
import { eventTypeFilter, streamNameFilter, type Filter } from '@eventstore/db-client';
import type { LogFilter } from '../port.js';

export interface RecordedIdentity {
  readonly streamId: string;
  readonly type: string;
}

/** EventStoreDB's own events ($-streams such as $stats-…, $-types such as $metadata) are not the application's. */
export function isSystemEvent(event: RecordedIdentity): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/** The stream prefixes a filter asks for, within the scope (the narrower of each overlapping pair). */
function streamPrefixesIn(scope: readonly string[], filter: LogFilter | undefined): readonly string[] {
  const asked = filter?.streamPrefixes ?? [];
  if (asked.length === 0) return scope;
  return asked.flatMap((prefix) => scope.flatMap((own) => (prefix.startsWith(own) ? [prefix] : own.startsWith(prefix) ? [own] : [])));
}

export function matchesLogFilter(scope: readonly string[], filter: LogFilter | undefined): (event: RecordedIdentity) => boolean {
  const streamPrefixes = streamPrefixesIn(scope, filter);
  const typePrefixes = filter?.eventTypePrefixes ?? [];
  return (event) =>
    !isSystemEvent(event) &&
    streamPrefixes.some((prefix) => event.streamId.startsWith(prefix)) &&
    (typePrefixes.length === 0 || typePrefixes.some((prefix) => event.type.startsWith(prefix)));
}

/**
 * The part of the filter the server can apply: it filters on stream names or
 * on event types, not both. Stream prefixes (the scope's, narrowed by the
 * filter's) go to the server unless the filter names event types only;
 * matchesLogFilter applies the rest on arrival.
 */
export function serverSideFilter(scope: readonly string[], filter: LogFilter | undefined): Filter {
  if (!filter?.streamPrefixes?.length && filter?.eventTypePrefixes?.length)
    return eventTypeFilter({ prefixes: [...filter.eventTypePrefixes] });
  const prefixes = streamPrefixesIn(scope, filter);
  // No prefix of the filter lies in the scope: ask for its own prefixes, which matchesLogFilter then drops.
  return streamNameFilter({ prefixes: [...(prefixes.length > 0 ? prefixes : (filter?.streamPrefixes ?? scope))] });
}
