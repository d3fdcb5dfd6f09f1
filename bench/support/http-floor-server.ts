// The HTTP floor's server (http-floor.ts): node:http and one
// pool, each POST's JSON body parsed and inserted as one row, its number
// answered. Nothing else: no validation, no key, no event, no projection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.MEMLEDGER_FLOOR_DATABASE_URL, max: 10, application_name: 'bench-http-floor' });
await pool.query(
  'create table if not exists bench_http_floor (n bigserial primary key, body jsonb not null, at timestamptz not null default now())',
);
const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    pool
      .query<{ n: string }>({
        name: 'bench_http_floor',
        text: 'insert into bench_http_floor (body) values ($1) returning n',
        values: [JSON.stringify(body)],
      })
      .then(({ rows }) => {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ n: rows[0]!.n }));
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
