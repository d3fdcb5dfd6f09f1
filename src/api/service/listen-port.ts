// The service's listen address: checked before anything starts, so a busy
// port fails at once with a message that says so, instead of after the
// embedded server, the pools and the background loops have come up.
import { createServer } from 'node:net';

export class PortInUse extends Error {
  override readonly name = 'PortInUse';
  readonly code = 'port_in_use';
  readonly field = 'port';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`${host}:${port} is already in use by another program; choose another port with --port or MEMLEDGER_PORT`);
  }
}

/** The error of a listen() on host:port, as PortInUse when that is what it says. */
export function listenFailure(error: unknown, host: string, port: number): Error {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return new PortInUse(host, port);
  return error instanceof Error ? error : new Error(String(error));
}

/** Throws PortInUse when something listens on host:port already (port 0 always has a free port). */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(listenFailure(error, host, port)));
    probe.listen({ host: host.replace(/^\[(.*)\]$/, '$1'), port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
