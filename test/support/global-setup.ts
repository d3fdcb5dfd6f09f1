// Starts one PostgreSQL server for the whole test run and hands its admin URL
// to the test files as MEMLEDGER_TEST_SERVER_URL; each file makes its own
// database on it (test/support/database.ts).
// TEMPORARY: until the embedded launcher lands, MEMLEDGER_TEST_SERVER_URL must be set.
export default async function setup(): Promise<() => Promise<void>> {
  if (!process.env.MEMLEDGER_TEST_SERVER_URL) {
    throw new Error('set MEMLEDGER_TEST_SERVER_URL (embedded launcher not wired yet)');
  }
  return async () => {};
}
