// The client's catch-up subscription (a Node readable stream) as the port's
// Subscription: an async iterable that close() ends. The client swallows the
// cancellation of its own stream, so its stream never ends after
// unsubscribe(); close() ends the iteration itself.
import type { AllStreamResolvedEvent, AllStreamSubscription } from '@eventstore/db-client';
import type { StoredEvent, Subscription } from '../port.js';

/** Events buffered before the gRPC stream is paused (flow control back to the server). */
const HIGH_WATER_MARK = 256;

export class EsdbSubscription implements Subscription {
  private readonly buffer: StoredEvent[] = [];
  private waiting: { resolve: (r: IteratorResult<StoredEvent>) => void; reject: (e: unknown) => void } | undefined;
  private failure: unknown;
  private done = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly source: AllStreamSubscription,
    /** Converts an arriving event, or returns undefined to skip it. */
    convert: (resolved: AllStreamResolvedEvent) => StoredEvent | undefined,
    private readonly onClosed: () => void,
  ) {
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      if (this.done) return;
      try {
        const event = convert(resolved);
        if (event) this.deliver(event);
      } catch (error) {
        this.fail(error);
      }
    });
    source.on('error', (error: unknown) => this.fail(error));
    source.on('end', () => this.finish());
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

  private next(): Promise<IteratorResult<StoredEvent>> {
    const event = this.buffer.shift();
    if (event) {
      if (this.buffer.length < HIGH_WATER_MARK / 2 && this.source.isPaused()) this.source.resume();
      return Promise.resolve({ done: false, value: event });
    }
    if (this.failure !== undefined) {
      const failure = this.failure;
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
