// What asks `serve` to stop: SIGTERM or SIGINT (a second one during the drain
// exits at once), the parent process ending (--stop-with-parent: npm start),
// and, in a worker process, the primary's stop message or its disappearance.
// Several of them at once (Ctrl-C reaches the primary and its workers alike)
// start one drain.
import cluster from 'node:cluster';
import { identityOf, isRunning } from '../../infrastructure/embedded-postgres/process-identity.js';

const PARENT_POLL_MS = 1000;
export const STOP_MESSAGE = 'memledger:stop';

export function stopRequests(options: { readonly stopWithParent: boolean; readonly onSecondSignal: () => void }): Promise<string> {
  return new Promise((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals++;
      if (signals > 1) options.onSecondSignal();
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    if (options.stopWithParent) {
      // The parent cannot forward a SIGKILL of itself: notice that it is gone.
      const parent = identityOf(process.ppid);
      const timer = setInterval(() => {
        if (isRunning(parent)) return;
        clearInterval(timer);
        resolve('parent_exited');
      }, PARENT_POLL_MS);
      timer.unref();
    }
    if (cluster.isWorker) {
      process.on('message', (message: unknown) => {
        if (message === STOP_MESSAGE) resolve('primary');
      });
      process.once('disconnect', () => resolve('primary_exited'));
    }
  });
}
