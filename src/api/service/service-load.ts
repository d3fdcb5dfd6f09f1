// How busy the service's requests' thread is, for off-peak consolidation
// (worker.ts, consolidationRunsNow): its event-loop utilization, the share
// of the last interval it spent running rather than waiting for I/O. At or
// above BUSY_UTILIZATION the service counts as busy: a request waits for
// its turn there, and a consolidation run beside it takes a core from it.
import { performance } from 'node:perf_hooks';

export const BUSY_UTILIZATION = 0.5;
const SAMPLE_MS = 500;

/** Calls `onChange` with the first judgement and each change after it, every `intervalMs`, until `signal` aborts. */
export function watchServiceLoad(onChange: (busy: boolean) => void, signal: AbortSignal, intervalMs = SAMPLE_MS): void {
  if (signal.aborted) return;
  let last = performance.eventLoopUtilization();
  let busy: boolean | undefined;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const next = performance.eventLoopUtilization(now, last).utilization >= BUSY_UTILIZATION;
    last = now;
    if (next !== busy) onChange((busy = next));
  }, intervalMs);
  // Never what keeps the process alive.
  timer.unref();
  signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
