// The service's log: pino JSON lines on stdout, or pino-pretty's readable
// lines when stdout is a terminal.
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export function serviceLogger(level: string, options: { readonly pretty?: boolean } = {}): Logger {
  const base = { level, base: { service: 'memledger' } };
  if (options.pretty ?? process.stdout.isTTY === true)
    return pino(base, pretty({ colorize: process.env.NO_COLOR === undefined, destination: 1, sync: true }));
  return pino(base);
}
