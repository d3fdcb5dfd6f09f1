// Each second of a phase as the load generator saw it: the requests answered
// in it and their latency p50 / p99 / max (MEMLEDGER_BENCH_PER_SECOND=1).
// Says whether a phase's p99 comes from a few slow seconds (a stall: a
// checkpoint, a collection, a consolidation) or from every second alike.
import type { EventEmitter } from 'node:events';
import { percentile } from './percentile.js';

/** Starts listening to an autocannon instance's responses; the returned function gives one line per second. */
export function perSecond(instance: EventEmitter): () => string[] {
  const start = Date.now();
  const seconds: number[][] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    const at = Math.floor((Date.now() - start) / 1000);
    (seconds[at] ??= []).push(responseTime);
  });
  return () =>
    Array.from(seconds, (latencies, at) => {
      const sorted = [...(latencies ?? [])].sort((a, b) => a - b);
      if (sorted.length === 0) return `second ${at}: no answers`;
      return `second ${at}: ${sorted.length} answers, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
    });
}
