// The service's consolidation workers on a thread of their own. A run takes a
// subject's memories through the summarizer, the tokenizer and the loss gate:
// seconds of CPU for a subject of a thousand memories, which on the service's
// event loop held every request behind it (recall-query bench: a recall right
// after a write waited 3.3 s at the median, 15-18 s at worst, while the
// service consolidated its subjects; 0.12 s once they were done). On a thread,
// the OS runs it beside the requests. The thread opens its own ledger on the
// service's databases (consolidation-thread-main.ts); its appends are timed
// into the service's histogram and its lines logged here.
import { Worker } from 'node:worker_threads';
import type { Histogram } from 'prom-client';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ENV } from '../../infrastructure/config.js';
import { watchServiceLoad } from './service-load.js';

export interface ConsolidationThreadOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** The databases the service opened (the embedded server's, when nothing is configured). */
  readonly databaseUrl: string;
  readonly workers: number;
  readonly threshold: number;
  readonly pollMs: number;
  /** Off-peak: how long a due subject may wait while the service is busy (0: never). */
  readonly maxDeferMs: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly appendDuration: Histogram<'stream' | 'outcome'>;
}

/** What the thread is given (workerData), checked by the thread. */
export const consolidationThreadDataSchema = z.strictObject({
  env: z.record(z.string(), z.string()),
  cwd: z.string().min(1),
  workers: z.number().int().min(1),
  threshold: z.number().int().min(1),
  pollMs: z.number().int().min(1),
  maxDeferMs: z.number().int().min(0),
});
export type ConsolidationThreadData = z.output<typeof consolidationThreadDataSchema>;

/** What the service tells the thread: stop between runs, or whether its requests' thread is busy (off-peak consolidation). */
export const toConsolidationThreadSchema = z.union([z.literal('stop'), z.strictObject({ type: z.literal('load'), busy: z.boolean() })]);
export type ToConsolidationThread = z.output<typeof toConsolidationThreadSchema>;

/** What the thread tells the service. */
export type ConsolidationThreadMessage =
  | { readonly type: 'report'; readonly worker: number; readonly line: Record<string, unknown> }
  | { readonly type: 'failure'; readonly worker: number; readonly message: string }
  | { readonly type: 'append'; readonly stream: string; readonly outcome: string; readonly seconds: number };

/** The thread's entry: its compiled file beside this one, or from the sources (tests, `npm run dev`) through tsx. */
function threadEntry(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./consolidation-thread-main.js', here);
  const entry = new URL('./consolidation-thread-main.ts', here).href;
  const code = `const tsx = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); tsx.register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Runs the thread until `signal` aborts (then asks it to stop between runs and waits for it); rejects when it fails. */
export function runConsolidationThread(options: ConsolidationThreadOptions): Promise<void> {
  const { env, logger, signal } = options;
  const strings = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const data: ConsolidationThreadData = {
    // The service's own databases, whether configured or embedded: the thread connects to them as they are.
    env: {
      ...strings,
      [ENV.eventStoreUrl]: env[ENV.eventStoreUrl] || options.databaseUrl,
      [ENV.databaseUrl]: options.databaseUrl,
    },
    cwd: options.cwd ?? process.cwd(),
    workers: options.workers,
    threshold: options.threshold,
    pollMs: options.pollMs,
    maxDeferMs: options.maxDeferMs,
  };
  return new Promise((resolve, reject) => {
    const thread = new Worker(threadEntry(), { workerData: data, name: 'consolidation' });
    const tell = (message: ToConsolidationThread) => thread.postMessage(message);
    const stop = () => tell('stop');
    signal.addEventListener('abort', stop, { once: true });
    const watching = new AbortController();
    if (options.maxDeferMs > 0) watchServiceLoad((busy) => tell({ type: 'load', busy }), watching.signal);
    thread.on('message', (message: ConsolidationThreadMessage) => {
      switch (message.type) {
        case 'report':
          logger.info({ worker: message.worker, thread: thread.threadId, ...message.line }, 'consolidation');
          break;
        case 'failure':
          logger.error(
            { loop: `consolidation-worker:${message.worker}`, thread: thread.threadId, err: message.message },
            'background loop failed; restarting',
          );
          break;
        case 'append':
          options.appendDuration.observe({ stream: message.stream, outcome: message.outcome }, message.seconds);
          break;
        default: {
          const never: never = message;
          throw new TypeError(`unknown message ${JSON.stringify(never)}`);
        }
      }
    });
    let failure: Error | undefined;
    thread.on('error', (error) => (failure = error));
    thread.on('exit', (code) => {
      signal.removeEventListener('abort', stop);
      watching.abort();
      if (failure) reject(failure);
      else if (code !== 0) reject(new Error(`the consolidation thread exited with code ${code}`));
      else resolve();
    });
    if (signal.aborted) stop();
  });
}
