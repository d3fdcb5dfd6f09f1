// A background loop run until `signal` aborts, started again after a pause
// when it fails or returns early: the service's projectors, sweepers and
// subscriptions, and the consolidation thread's workers.
import { setTimeout as pause } from 'node:timers/promises';

const RESTART_MS = 2000;

/** What the loop's owner hears before each restart. */
export interface LoopWatch {
  ended(): void;
  failed(error: unknown): void;
}

export async function supervise(work: () => Promise<unknown>, signal: AbortSignal, watch: LoopWatch): Promise<void> {
  while (!signal.aborted) {
    try {
      await work();
      if (!signal.aborted) watch.ended();
    } catch (error) {
      if (signal.aborted) break;
      watch.failed(error);
    }
    await pause(RESTART_MS, undefined, { signal }).catch(() => undefined);
  }
}
