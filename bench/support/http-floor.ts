// The HTTP floor: what this machine serves when a request does nothing but
// what every record must (a POST over loopback HTTP, its JSON parsed, one
// row inserted and committed, an answer), from a server process of its own
// (http-floor-server.ts) driven as the record phase is (autocannon, the
// same concurrency, the same PostgreSQL). Between raw INSERT+COMMIT and the
// record phase, it shows what HTTP and Node cost and what memledger's own
// work does.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SERVER = fileURLToPath(new URL('./http-floor-server.ts', import.meta.url));

export async function httpFloor(
  databaseUrl: string,
  seconds: number,
  connections: number,
  body: string,
): Promise<{ perSecond: number; p99: number; failed: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, MEMLEDGER_FLOOR_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [port] = (await once(child.stdout, 'data')) as [Buffer];
    const result = await autocannon({
      url: `http://127.0.0.1:${port.toString().trim()}`,
      connections,
      duration: seconds,
      requests: [{ method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body }],
    });
    return { perSecond: result.requests.average, p99: result.latency.p99, failed: result.errors + result.timeouts + result.non2xx };
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}
