// The EventStore port on EventStoreDB / KurrentDB through @eventstore/db-client.
// The port has EventStoreDB's semantics, so this adapter mostly translates
// names; what it adds is reading $all with the port's filter and exclusive
// `after` (log-scan.ts), and appends cut to the server's size limit.
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  MaxAppendSizeExceededError,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type Filter,
  type JSONType,
  type ReadPosition,
  type RecordedEvent,
} from '@eventstore/db-client';
import { type AppendResult, type EventStore, type ExpectedRevision, type Position, type StoredEvent, type Subscription } from '../port.js';
import {
  parseAppend,
  parseCountAll,
  parseReadAll,
  parseReadPage,
  parseReadStream,
  parseSubscribeAll,
  type AppendInput,
} from '../postgres/input.js';
import { countByReading } from '../count-by-reading.js';
import { esdbConnection } from './connection.js';
import { appendParts, DEFAULT_MAX_APPEND_BYTES } from './append-parts.js';
import { asPortErrors } from './client-errors.js';
import { appendConflict, toClientRevision } from './append-conflict.js';
import { readAllFiltered } from './filtered-read.js';
import { onLeader, ON_LEADER } from './leader.js';
import { matchesLogFilter, serverSideFilter } from './log-filter.js';
import { RECORDED_AT, StreamTimes } from './recorded-at.js';
import { toStoredEvent } from './recorded-event.js';
import { findHead, scanLog } from './log-scan.js';
import { ScanHorizons } from './scan-horizon.js';
import { EsdbSubscription } from './subscription.js';

const READ_ALL = { operation: 'a read of $all' };

export interface EsdbEventStoreOptions {
  /**
   * The store's own streams: names starting with one of these. $all may
   * hold other applications' streams (a shared cluster); reads, the head
   * and subscriptions see only these.
   */
  readonly streamPrefixes: readonly string[];
  /**
   * The server's MaxAppendSize in bytes (default 1 MiB, the server's
   * default). Larger batches are cut between commands; a server that
   * refuses a part for size lowers it to what the server says.
   */
  readonly maxAppendBytes?: number;
  /** The clock recordedAt is taken from, in milliseconds (default Date.now; see recorded-at.ts). */
  readonly clock?: () => number;
}

/** Connects lazily: the first call opens the gRPC channel. `url` is an EventStoreDB connection string (`esdb://host:2113?tls=false`). */
export function openEsdbEventStore(url: string, options: EsdbEventStoreOptions): EventStore {
  const { client, scope } = esdbConnection(url, options.streamPrefixes);
  return new EsdbEventStore(client, scope, options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES, new StreamTimes(options.clock ?? Date.now));
}

class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<EsdbSubscription>();
  /** Whether any call went out, i.e. whether the client opened a channel. */
  private used = false;
  private leaderFound: Promise<void> | undefined;
  private readonly horizons = new ScanHorizons();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly scope: readonly string[],
    private maxAppendBytes: number,
    private readonly times: StreamTimes,
  ) {}

  async append(
    stream: string,
    events: Parameters<EventStore['append']>[1],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const input = parseAppend(stream, events, options);
    // One recordedAt for the whole batch, never before the stream's previous one.
    const at = this.times.next(await this.previousRecordedAt(input.stream, input.expectedRevision));
    const stamped = input.events.map((event) => ({ ...event, metadata: { ...event.metadata, [RECORDED_AT]: at.toISOString() } }));
    let parts = appendParts(input.stream, stamped, this.maxAppendBytes);
    let expectedRevision = input.expectedRevision;
    for (let i = 0; ;) {
      try {
        const result = await this.appendPart({ stream: input.stream, events: parts[i]!, expectedRevision });
        if (++i === parts.length) {
          this.times.saw(input.stream, result.nextExpectedRevision, at);
          return result;
        }
        expectedRevision = result.nextExpectedRevision;
      } catch (error) {
        // The server's limit is lower than assumed: cut the rest again (nothing of this part was written).
        if (!(error instanceof MaxAppendSizeExceededError) || error.maxAppendSize >= this.maxAppendBytes) throw error;
        this.maxAppendBytes = error.maxAppendSize;
        parts = [...parts.slice(0, i), ...appendParts(input.stream, parts.slice(i).flat(), this.maxAppendBytes)];
      }
    }
  }

  /** The recordedAt of the event the append will follow (read only when this store has not seen it). */
  private async previousRecordedAt(stream: string, expected: ExpectedRevision): Promise<Date | undefined> {
    if (expected === 'no_stream') return undefined;
    if (typeof expected === 'number') {
      return this.times.at(stream, expected) ?? (await this.readStream(stream, { fromRevision: expected, maxCount: 1 }))[0]?.recordedAt;
    }
    return (await this.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.recordedAt;
  }

  private async appendPart(input: AppendInput): Promise<AppendResult> {
    this.used = true;
    // Find the leader with a read before the first append: client 6.2.1 keeps
    // every BatchAppend callback in one module-wide map and rejects all of
    // them — other clients' too — when any BatchAppend call fails, after
    // which their answers throw (dist/streams/appendToStream/batchAppend.js).
    // A NotLeader on the first append would do just that.
    await (this.leaderFound ??= this.readAllPage(END, BACKWARDS, 1).then(() => undefined));
    try {
      const site = { operation: `an append to ${input.stream}`, appendTo: input.stream };
      const result = await asPortErrors(site, () =>
        onLeader(() =>
          this.client.appendToStream(
            input.stream,
            input.events.map((event) =>
              // The caller's id makes a retried append idempotent on the server.
              jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata }),
            ),
            { expectedRevision: toClientRevision(input.expectedRevision), ...ON_LEADER },
          ),
        ),
      );
      if (!result.position) throw new Error(`EventStoreDB returned no position for an append to ${input.stream}`);
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: { commit: result.position.commit, prepare: result.position.prepare },
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      throw await appendConflict(
        input,
        error,
        async (stream, fromRevision) => (await this.readStream(stream, { fromRevision, maxCount: 1 }))[0],
      );
    }
  }

  async readStream(stream: string, options?: Parameters<EventStore['readStream']>[1]): Promise<StoredEvent[]> {
    const input = parseReadStream(stream, options);
    const backwards = input.options.direction === 'backwards';
    this.used = true;
    const recorded = await asPortErrors({ operation: `a read of ${input.stream}` }, () =>
      onLeader(async () => {
        const read = this.client.readStream(input.stream, {
          direction: backwards ? BACKWARDS : FORWARDS,
          fromRevision: input.options.fromRevision !== undefined ? BigInt(input.options.fromRevision) : backwards ? END : START,
          ...(input.options.maxCount !== undefined ? { maxCount: input.options.maxCount } : {}),
          ...ON_LEADER,
        });
        const page: RecordedEvent[] = [];
        try {
          // Drain the stream before converting: leaving it half-read (a throw
          // inside the loop) would keep the gRPC call alive and hang dispose().
          for await (const resolved of read) if (resolved.event) page.push(resolved.event);
        } catch (error) {
          if (error instanceof StreamNotFoundError) return [];
          throw error;
        }
        return page;
      }),
    );
    const stored = recorded.map(toStoredEvent);
    const latest = stored.reduce<StoredEvent | undefined>((a, b) => (a && a.streamRevision > b.streamRevision ? a : b), undefined);
    if (latest) this.times.saw(latest.stream, latest.streamRevision, latest.recordedAt);
    return stored;
  }

  /**
   * Filtered by the server (filtered-read.ts), and from where earlier reads
   * of the same filter got (scan-horizon.ts): a poll costs what is new.
   */
  async readAll(options?: Parameters<EventStore['readAll']>[0]): Promise<StoredEvent[]> {
    const { after, maxCount = Number.POSITIVE_INFINITY, filter } = parseReadAll(options);
    return (await this.scan(after, maxCount, filter)).events;
  }

  async readPage(options: Parameters<EventStore['readPage']>[0]): ReturnType<EventStore['readPage']> {
    const { after, maxCount, filter } = parseReadPage(options);
    return this.scan(after, maxCount, filter);
  }

  /** $all has no count: the events are read and counted. */
  async countAll(options: Parameters<EventStore['countAll']>[0]): Promise<number> {
    return countByReading((read) => this.readAll(read), parseCountAll(options));
  }

  /** The log after `after`, filtered, and how far it was examined (readAll keeps the events only). */
  private scan(
    after: Position | undefined,
    maxCount: number,
    filter: Parameters<EventStore['readPage']>[0]['filter'],
  ): ReturnType<EventStore['readPage']> {
    return scanLog((from, direction, count, onServer) => this.readFiltered(from, direction, count, onServer), {
      scope: this.scope,
      horizons: this.horizons,
      end: async () => (await this.readAllPage(END, BACKWARDS, 1))[0],
      after,
      maxCount,
      filter,
    });
  }

  /**
   * Nothing to wait for: every call requires the leader (leader.ts), whose
   * $all shows an event once its write is acknowledged.
   */
  async awaitCommitted(): Promise<void> {}

  async headPosition(): Promise<Position | undefined> {
    return findHead((from, direction, count, onServer) => this.readFiltered(from, direction, count, onServer), this.scope);
  }

  subscribeAll(options?: Parameters<EventStore['subscribeAll']>[0]): Subscription {
    const { after, filter } = parseSubscribeAll(options);
    const wanted = matchesLogFilter(this.scope, filter);
    this.used = true;
    const subscription = new EsdbSubscription(
      // subscribeToAll's fromPosition is exclusive, like the port's `after`.
      (from) => this.client.subscribeToAll({ fromPosition: from ?? START, filter: serverSideFilter(this.scope, filter), ...ON_LEADER }),
      after,
      (resolved: AllStreamResolvedEvent) => (resolved.event && wanted(resolved.event) ? toStoredEvent(resolved.event) : undefined),
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
    // dispose() cancels the calls but leaves the channel (and its socket)
    // open. getChannel() is protected; it only creates a channel (for
    // discovery: gossip calls) when none exists, hence the check.
    if (this.used) {
      const channel = await (this.client as unknown as { getChannel(): Promise<{ close(): void }> }).getChannel();
      channel.close();
    }
  }

  private readFiltered(from: ReadPosition, direction: typeof FORWARDS | typeof BACKWARDS, maxCount: number, filter: Filter) {
    this.used = true;
    return asPortErrors(READ_ALL, () =>
      onLeader(() => readAllFiltered(this.client, { fromPosition: from, direction, maxCount, filter, ...ON_LEADER })),
    );
  }

  /** Reads one page of $all, unfiltered, to the end of the response (see readStream on draining). */
  private async readAllPage(from: ReadPosition, direction: typeof FORWARDS | typeof BACKWARDS, maxCount: number) {
    this.used = true;
    return asPortErrors(READ_ALL, () =>
      onLeader(async () => {
        const page: NonNullable<AllStreamResolvedEvent['event']>[] = [];
        for await (const resolved of this.client.readAll({ fromPosition: from, direction, maxCount, ...ON_LEADER })) {
          if (resolved.event) page.push(resolved.event);
        }
        return page;
      }),
    );
  }
}
