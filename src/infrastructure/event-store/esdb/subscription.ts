// The client's catch-up subscription (a Node readable stream) as the port's
// Subscription: an async iterable that close() ends. The client swallows the
// cancellation of its own stream, so its stream never ends after
// unsubscribe(); close() ends the iteration itself.
//
// A node that stops leading (or a follower it was pointed at) drops the
// subscription with NotLeader; the client reconnects to the leader it names,
// and the subscription is opened again after the last event it received, so
// the iteration goes on without a gap or a repeat.
import {
  NotLeaderError,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Position as ClientPosition,
} from '@eventstore/db-client';
import type { Position, StoredEvent, Subscription } from '../port.js';
import { portError } from './client-errors.js';

/** Events buffered before the gRPC stream is paused (flow control back to the server). */
const HIGH_WATER_MARK = 256;
/** Reopenings in a row without an event in between before the failure is handed on. */
const REOPENINGS = 5;
const REOPEN_PAUSE_MS = 20;

export class EsdbSubscription implements Subscription {
  private readonly buffer: StoredEvent[] = [];
  private waiting: { resolve: (r: IteratorResult<StoredEvent>) => void; reject: (e: unknown) => void } | undefined;
  private failure: unknown;
  private done = false;
  private closing: Promise<void> | undefined;
  private source: AllStreamSubscription;
  private reopenings = 0;

  constructor(
    private readonly open: (after: ClientPosition | undefined) => AllStreamSubscription,
    /** Exclusive; moves with every event received (also those `convert` skips). */
    private after: Position | undefined,
    /** Converts an arriving event, or returns undefined to skip it. */
    private readonly convert: (resolved: AllStreamResolvedEvent) => StoredEvent | undefined,
    private readonly onClosed: () => void,
  ) {
    this.source = this.attach();
  }

  [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.buffer.length = 0;
      this.failure = undefined;
      this.finish();
      await this.source.unsubscribe();
      this.source.destroy();
      this.onClosed();
    })();
    return this.closing;
  }

  private attach(): AllStreamSubscription {
    const source = this.open(this.after);
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      if (this.done || source !== this.source) return;
      this.reopenings = 0;
      if (resolved.event?.position) this.after = resolved.event.position;
      try {
        const event = this.convert(resolved);
        if (event) this.deliver(event);
      } catch (error) {
        this.fail(error);
      }
    });
    source.on('error', (error: unknown) => {
      if (source !== this.source) return;
      if (error instanceof NotLeaderError && this.reopenings < REOPENINGS && !this.done) this.reopen();
      else this.fail(portError(error, { operation: 'a subscription to $all' }));
    });
    source.on('end', () => {
      if (source === this.source) this.finish();
    });
    return source;
  }

  private reopen(): void {
    this.reopenings += 1;
    const dropped = this.source;
    setTimeout(() => {
      dropped.destroy();
      if (!this.done) this.source = this.attach();
    }, REOPEN_PAUSE_MS * this.reopenings);
  }

  private next(): Promise<IteratorResult<StoredEvent>> {
    const event = this.buffer.shift();
    if (event) {
      if (this.buffer.length < HIGH_WATER_MARK / 2 && this.source.isPaused()) this.source.resume();
      return Promise.resolve({ done: false, value: event });
    }
    if (this.failure !== undefined) {
      const failure: unknown = this.failure; // not narrowed to {}: handed on as it came
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  private deliver(event: StoredEvent): void {
    const waiting = this.take();
    if (waiting) return waiting.resolve({ done: false, value: event });
    this.buffer.push(event);
    if (this.buffer.length >= HIGH_WATER_MARK) this.source.pause();
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    const waiting = this.take();
    if (waiting) waiting.reject(error);
    else this.failure = error;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.take()?.resolve({ done: true, value: undefined });
  }

  private take() {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting;
  }
}
