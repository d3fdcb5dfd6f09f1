// Which events of $all a reader of the port sees: never system events, and
// only the stream / event-type prefixes asked for.
import { eventTypeFilter, excludeSystemEvents, streamNameFilter, type Filter } from '@eventstore/db-client';
import type { LogFilter } from '../port.js';

export interface RecordedIdentity {
  readonly streamId: string;
  readonly type: string;
}

/** EventStoreDB's own events ($-streams such as $stats-…, $-types such as $metadata) are not the application's. */
export function isSystemEvent(event: RecordedIdentity): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

export function matchesLogFilter(filter: LogFilter | undefined): (event: RecordedIdentity) => boolean {
  const streamPrefixes = filter?.streamPrefixes ?? [];
  const typePrefixes = filter?.eventTypePrefixes ?? [];
  return (event) =>
    !isSystemEvent(event) &&
    (streamPrefixes.length === 0 || streamPrefixes.some((prefix) => event.streamId.startsWith(prefix))) &&
    (typePrefixes.length === 0 || typePrefixes.some((prefix) => event.type.startsWith(prefix)));
}

/**
 * The part of the filter the server can apply: it filters on stream names or
 * on event types, not both, so with both the stream prefixes go to the server
 * and matchesLogFilter applies the rest on arrival.
 */
export function serverSideFilter(filter: LogFilter | undefined): Filter {
  if (filter?.streamPrefixes?.length) return streamNameFilter({ prefixes: [...filter.streamPrefixes] });
  if (filter?.eventTypePrefixes?.length) return eventTypeFilter({ prefixes: [...filter.eventTypePrefixes] });
  return excludeSystemEvents();
}
