// The consolidation thread (consolidation-thread.ts): a ledger of its own on
// the service's databases, and the service's consolidation workers on it,
// until the service says stop (between runs, as the workers stop).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { LabelValues } from 'prom-client';
import { consolidationServicesFromEnv } from '../../commands/consolidation/services.js';
import { runWorker } from '../../commands/consolidation/worker.js';
import { openLedger } from '../../runtime/open-ledger.js';
import { consolidationThreadDataSchema, toConsolidationThreadSchema, type ConsolidationThreadMessage } from './consolidation-thread.js';
import { supervise } from './supervised-loop.js';
import { timedEventStore } from './timed-event-store.js';

const data = consolidationThreadDataSchema.parse(workerData);
yieldToRequests();
const port = parentPort!;
const post = (message: ConsolidationThreadMessage) => port.postMessage(message);
const stopping = new AbortController();
/** Whether the service's requests' thread is busy, as it last said (off-peak consolidation). */
let serviceBusy = false;
port.on('message', (raw) => {
  const message = toConsolidationThreadSchema.parse(raw);
  if (message === 'stop') stopping.abort();
  else serviceBusy = message.busy;
});

/**
 * The thread at nice 10 (Linux: a thread's own priority, set through its
 * task id): when the requests' thread and this one both want a core, the
 * requests get it first. Record phase, 20 s, two rounds each: p99 305 / 242
 * -> 220 / 222 ms, projection lag at most 379 / 354 -> 320 / 313 events,
 * at the same rate. Elsewhere it runs as it is.
 */
function yieldToRequests(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').at(-1)), 10);
  } catch {
    // No /proc/thread-self: another OS.
  }
}

type Labels = LabelValues<'stream' | 'outcome'>;
/** The service's append histogram, from here: each append's time is posted to it. */
const appendTimer = {
  startTimer(labels?: Labels) {
    const started = performance.now();
    return (more?: Labels) => {
      const seconds = (performance.now() - started) / 1000;
      post({ type: 'append', stream: String(labels?.stream ?? ''), outcome: String(more?.outcome ?? ''), seconds });
      return seconds;
    };
  },
};

const ledger = await openLedger({ env: data.env, cwd: data.cwd });
try {
  const services = await consolidationServicesFromEnv(data.env);
  const measured = { ...ledger, eventStore: timedEventStore(ledger.eventStore, appendTimer) };
  // Each worker restarts here when it fails (the database gone, say), as the service's other loops do: a new
  // thread would load every module again.
  const run = (worker: number) =>
    supervise(
      () =>
        runWorker(measured, services, {
          threshold: data.threshold,
          pollMs: data.pollMs,
          signal: stopping.signal,
          ...(data.maxDeferMs > 0 ? { offPeak: { busy: () => serviceBusy, maxDeferMs: data.maxDeferMs } } : {}),
          report: (line) => post({ type: 'report', worker, line }),
        }),
      stopping.signal,
      {
        ended: () => post({ type: 'failure', worker, message: 'ended early' }),
        failed: (error) => post({ type: 'failure', worker, message: error instanceof Error ? error.message : String(error) }),
      },
    );
  await Promise.all(Array.from({ length: data.workers }, (_, i) => run(i + 1)));
} finally {
  await ledger.close();
  port.close();
}
