// Reading $all in pages: forwards with the port's filter and exclusive
// `after` (the client's readAll takes no filter and is inclusive), from where
// earlier reads of the same filter got (scan-horizon.ts), so a poll costs
// what is new; and backwards from the end to the store's last own event.
import { BACKWARDS, END, FORWARDS, START, type AllStreamRecordedEvent, type Filter, type ReadPosition } from '@eventstore/db-client';
import { comparePositions, type LogFilter, type Position, type StoredEvent } from '../port.js';
import { matchesLogFilter, serverSideFilter } from './log-filter.js';
import { toStoredEvent } from './recorded-event.js';
import type { ScanHorizons } from './scan-horizon.js';

/** Events per readAll request (the server filters; pages grow while the client's part of a filter skips events). */
const PAGE_SIZE = 500;
const MIN_PAGE_SIZE = 16;
/** Events per request while looking for the head backwards. */
const HEAD_PAGE_SIZE = 16;

/** One page of $all, filtered by the server. */
export type ReadLogPage = (
  from: ReadPosition,
  direction: typeof FORWARDS | typeof BACKWARDS,
  maxCount: number,
  filter: Filter,
) => Promise<AllStreamRecordedEvent[]>;

export interface LogScan {
  readonly scope: readonly string[];
  readonly horizons: ScanHorizons;
  /** The log's last event (of any stream), read before the scan. */
  readonly end: () => Promise<{ readonly position: Position } | undefined>;
  readonly after: Position | undefined;
  readonly maxCount: number;
  readonly filter: LogFilter | undefined;
}

/** What a scan found, and how far it examined the log (see ExaminedPage). */
export interface ScannedLog {
  readonly events: StoredEvent[];
  readonly examinedTo: Position | undefined;
}

export async function scanLog(
  readPage: ReadLogPage,
  { scope, horizons, end: readEnd, after, maxCount, filter }: LogScan,
): Promise<ScannedLog> {
  const wanted = matchesLogFilter(scope, filter);
  const onServer = serverSideFilter(scope, filter);
  const key = JSON.stringify([filter?.streamPrefixes ?? [], filter?.eventTypePrefixes ?? []]);
  // The log's end before the read: a read that reaches the end has covered up to here.
  const end = await readEnd();
  const start = horizons.startAfter(key, after);
  if (!end || (start && comparePositions(start, end.position) >= 0)) return { events: [], examinedTo: start };
  const events: StoredEvent[] = [];
  // The server reads $all from a position inclusively; `after` is exclusive,
  // and each page starts again at the previous page's last event.
  let from: ReadPosition = start ?? START;
  let seen: Position | undefined = start;
  // Small reads start with small pages; pages grow while the client-side part of the filter skips events.
  let pageSize = Math.min(PAGE_SIZE, Math.max(MIN_PAGE_SIZE, maxCount + 1));
  for (;;) {
    const page = await readPage(from, FORWARDS, pageSize, onServer);
    for (const event of page) {
      if (seen && comparePositions(event.position, seen) <= 0) continue;
      seen = event.position;
      if (!wanted(event)) continue;
      events.push(toStoredEvent(event));
      if (events.length >= maxCount) return { events, examinedTo: events.at(-1)!.position };
    }
    if (page.length < pageSize || !seen) {
      // The server went to the end of the log: nothing else of this filter lies before `end`.
      const lastFound = events.at(-1)?.position ?? start;
      if (!lastFound || comparePositions(lastFound, end.position) < 0) horizons.record(key, lastFound, end.position);
      const examinedTo = !lastFound || comparePositions(lastFound, end.position) < 0 ? end.position : lastFound;
      return { events, examinedTo: { commit: examinedTo.commit, prepare: examinedTo.prepare } };
    }
    from = seen;
    pageSize = Math.min(PAGE_SIZE, pageSize * 2);
  }
}

/** Backwards from the end through the store's own streams (the server skips the rest), past system events. */
export async function findHead(readPage: ReadLogPage, scope: readonly string[]): Promise<Position | undefined> {
  const own = matchesLogFilter(scope, undefined);
  const onServer = serverSideFilter(scope, undefined);
  let from: ReadPosition = END;
  for (;;) {
    const page = await readPage(from, BACKWARDS, HEAD_PAGE_SIZE, onServer);
    for (const recorded of page) {
      if (from !== END && comparePositions(recorded.position, from) >= 0) continue;
      if (own(recorded)) return { commit: recorded.position.commit, prepare: recorded.position.prepare };
    }
    const last = page[page.length - 1];
    if (page.length < HEAD_PAGE_SIZE || !last) return undefined;
    from = last.position;
  }
}
