// Streams.Read: reads of one stream, reads of $all, and catch-up
// subscriptions to $all (confirmation, catch-up, caught-up, live; checkpoints
// while a filter skips events). Subscriptions to a single stream are not
// implemented: the adapter never asks for them.
import { randomUUID } from 'node:crypto';
import { status, type ServerWritableStream } from '@grpc/grpc-js';
import type { ReadReq as ReadReqMessage, ReadResp as ReadRespMessage } from '@eventstore/db-client/generated/streams_pb.js';
import type { LogView, LoggedEvent } from './log.js';
import { BadRequest, comparePosition, eventResponse, streamIdentifier, streamName } from './messages.js';
import type { Fault, Faults } from './faults.js';
import { ReadReq, ReadResp } from './protocol.js';
import { rpc, type RpcFailure } from './statuses.js';

type ReadCall = ServerWritableStream<ReadReqMessage, ReadRespMessage>;

/** The server's default search window when the client asks for `count`. */
const DEFAULT_MAX_SEARCH_WINDOW = 32;

/** What one read cost the server: events it walked past, and events it sent. */
export interface ReadMeter {
  scanned: number;
  served: number;
}

export function read(log: LogView, meterOf: (call: ReadCall) => ReadMeter, faults: Faults) {
  return (call: ReadCall) => {
    const meter = meterOf(call);
    const fault = faults.takeRead();
    if (fault) return call.emit('error', readFailure(fault, call));
    try {
      const options = call.request.getOptions();
      if (!options) throw new BadRequest('read options missing');
      if (!options.getUuidOption()?.hasString()) throw new BadRequest('the double only sends event ids as strings');
      const matches = eventFilter(options);
      if (options.hasSubscription()) {
        if (!options.hasAll()) {
          call.emit('error', { code: status.UNIMPLEMENTED, details: 'the wire-level double only subscribes to $all' });
          return;
        }
        subscribeToAll(log, call, options.getAll()!, matches.predicate, matches.checkpointInterval, meter);
        return;
      }
      const count = Number(BigInt(options.getCount()));
      const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
      const events = options.hasStream()
        ? readStream(log, call, options.getStream()!, backwards)
        : readAll(log, options.getAll()!, backwards);
      if (events === undefined) return;
      void writeAll(call, take(events, matches.predicate, count, meter), options.hasAll(), meter).then(() => call.end());
    } catch (error) {
      call.emit('error', { code: status.INVALID_ARGUMENT, details: error instanceof Error ? error.message : String(error) });
    }
  };
}

function readFailure(fault: Fault, call: ReadCall): RpcFailure {
  if (fault.answer === 'timeout') return { code: status.DEADLINE_EXCEEDED, details: 'Deadline Exceeded' };
  if (fault.answer === 'not-ready') return rpc.notReady();
  if (fault.answer === 'access-denied') return rpc.accessDenied();
  const stream = call.request.getOptions()?.getStream()?.getStreamIdentifier();
  return rpc.streamDeleted(stream ? streamName(stream) : '$all');
}

function readStream(
  log: LogView,
  call: ReadCall,
  options: ReadReqMessage.Options.StreamOptions,
  backwards: boolean,
): Iterable<LoggedEvent> | undefined {
  const name = streamName(options.getStreamIdentifier());
  const events = log.stream(name);
  if (events.length === 0) {
    const notFound = new ReadResp.StreamNotFound();
    notFound.setStreamIdentifier(streamIdentifier(name));
    const response = new ReadResp();
    response.setStreamNotFound(notFound);
    call.write(response);
    call.end();
    return undefined;
  }
  const last = events.length - 1;
  const from = options.hasStart() ? 0 : options.hasEnd() ? last : Number(BigInt(options.getRevision()));
  if (backwards) return walk(events, Math.min(from, last), -1);
  return options.hasEnd() ? [] : walk(events, from, 1);
}

function readAll(log: LogView, options: ReadReqMessage.Options.AllOptions, backwards: boolean): Iterable<LoggedEvent> {
  const events = log.events;
  if (options.hasStart()) return backwards ? [] : walk(events, 0, 1);
  if (options.hasEnd()) return backwards ? walk(events, events.length - 1, -1) : [];
  const position = options.getPosition()!;
  // Forwards from a position includes the event there; backwards starts before it.
  const first = firstAtOrAfter(events, BigInt(position.getCommitPosition()), BigInt(position.getPreparePosition()));
  return backwards ? walk(events, first - 1, -1) : walk(events, first, 1);
}

function* walk(events: readonly LoggedEvent[], from: number, step: 1 | -1): Iterable<LoggedEvent> {
  for (let i = from; i >= 0 && i < events.length; i += step) yield events[i]!;
}

function* take(
  events: Iterable<LoggedEvent>,
  matches: (e: LoggedEvent) => boolean,
  count: number,
  meter: ReadMeter,
): Iterable<LoggedEvent> {
  if (count <= 0) return;
  let taken = 0;
  for (const event of events) {
    meter.scanned += 1;
    if (!matches(event)) continue;
    yield event;
    if (++taken >= count) return;
  }
}

/** Index of the first event at or after a position (the log is in position order). */
function firstAtOrAfter(events: readonly LoggedEvent[], commit: bigint, prepare: bigint): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comparePosition(events[middle]!, commit, prepare) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function eventFilter(options: ReadReqMessage.Options): { predicate: (e: LoggedEvent) => boolean; checkpointInterval: number } {
  const filter = options.getFilter();
  if (!options.hasFilter() || !filter) return { predicate: () => true, checkpointInterval: Number.POSITIVE_INFINITY };
  const onStream = filter.hasStreamIdentifier();
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType();
  if (!expression) throw new BadRequest('filter without an expression');
  const prefixes = expression.getPrefixList();
  const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : undefined;
  const window = filter.hasMax() ? filter.getMax() : DEFAULT_MAX_SEARCH_WINDOW;
  return {
    predicate: (event) => {
      const subject = onStream ? event.stream : event.type;
      if (regex) return regex.test(subject);
      return prefixes.some((prefix) => subject.startsWith(prefix));
    },
    checkpointInterval: window * Math.max(1, filter.getCheckpointintervalmultiplier()),
  };
}

async function writeAll(call: ReadCall, events: Iterable<LoggedEvent>, withCommitPosition: boolean, meter: ReadMeter): Promise<void> {
  for (const event of events) {
    if (call.cancelled) return;
    meter.served += 1;
    if (!call.write(eventResponse(event, withCommitPosition))) await drained(call);
  }
}

function drained(call: ReadCall): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
  });
}

/**
 * One cursor over the log serves both phases, so no event falls between
 * catch-up and live and none arrives twice. The start position is exclusive.
 */
function subscribeToAll(
  log: LogView,
  call: ReadCall,
  options: ReadReqMessage.Options.AllOptions,
  matches: (e: LoggedEvent) => boolean,
  checkpointInterval: number,
  meter: ReadMeter,
): void {
  let cursor: number;
  if (options.hasStart()) cursor = 0;
  else if (options.hasEnd()) cursor = log.events.length;
  else {
    const position = options.getPosition()!;
    const commit = BigInt(position.getCommitPosition());
    const prepare = BigInt(position.getPreparePosition());
    cursor = firstAtOrAfter(log.events, commit, prepare);
    if (cursor < log.events.length && comparePosition(log.events[cursor]!, commit, prepare) === 0) cursor += 1;
  }
  const confirmation = new ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(randomUUID());
  const confirmed = new ReadResp();
  confirmed.setConfirmation(confirmation);
  call.write(confirmed);

  let caughtUp = false;
  let skipped = 0;
  let pumping = false;
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (!call.cancelled && cursor < log.events.length) {
        const event = log.events[cursor++]!;
        let writable = true;
        meter.scanned += 1;
        if (matches(event)) {
          meter.served += 1;
          writable = call.write(eventResponse(event, true));
        } else if (++skipped >= checkpointInterval) {
          skipped = 0;
          writable = call.write(checkpointAt(event));
        }
        if (!writable) await drained(call);
      }
      if (!caughtUp && !call.cancelled) {
        caughtUp = true;
        const response = new ReadResp();
        response.setCaughtUp(new ReadResp.CaughtUp());
        call.write(response);
      }
    } finally {
      pumping = false;
    }
    // An append may have landed while this pass was waiting to drain.
    if (!call.cancelled && cursor < log.events.length) void pump();
  };
  const unsubscribe = log.onAppended(() => void pump());
  call.on('cancelled', unsubscribe);
  call.on('close', unsubscribe);
  void pump();
}

function checkpointAt(event: LoggedEvent): ReadRespMessage {
  const checkpoint = new ReadResp.Checkpoint();
  checkpoint.setCommitPosition(String(event.commit));
  checkpoint.setPreparePosition(String(event.prepare));
  const response = new ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}
