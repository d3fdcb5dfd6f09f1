// A step back of PostgreSQL's clock, as the next append sees it. The server's
// clock cannot be stepped from a test; every stored commit time lying `ms`
// later is the same thing to an append that reads clock_timestamp().
import pg from 'pg';

export function postgresClock(url: () => string) {
  return {
    async stepBack(ms: number): Promise<void> {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`update events set recorded_at = recorded_at + $1 * interval '1 millisecond'`, [ms]);
      } finally {
        await client.end();
      }
    },
  };
}
