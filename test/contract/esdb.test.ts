// The shared contract suite against a real EventStoreDB: the server given by
// MEMLEDGER_TEST_ESDB_URL, else a throwaway container through testcontainers
// when a container engine answers. Elsewhere the suite is skipped with a
// one-line reason (the wire-level double, esdb-wire-double.test.ts, still
// runs the adapter's wiring there).
import { describe, it } from 'vitest';
import { openEsdbEventStore } from '../../src/infrastructure/event-store/esdb/esdb-event-store.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { CONTRACT_STREAM_PREFIX } from './event-store-fixtures.js';
import { SteppingClock } from '../support/stepping-clock.js';

const IMAGE = process.env.MEMLEDGER_TEST_ESDB_IMAGE ?? 'eventstore/eventstore:24.10';
const HTTP_PORT = 2113;
/** How long a container engine may take to answer before the suite is skipped. */
const ENGINE_PROBE_MS = 5_000;

interface Reachable {
  readonly label: string;
  readonly url: () => Promise<string>;
  readonly stop: () => Promise<void>;
}

async function findEventStoreDB(): Promise<Reachable | { readonly skipped: string }> {
  const given = process.env.MEMLEDGER_TEST_ESDB_URL;
  if (given)
    return {
      label: `MEMLEDGER_TEST_ESDB_URL (${given.replace(/\/\/[^@/]*@/, '//')})`,
      url: () => Promise.resolve(given),
      stop: async () => {},
    };
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await import('testcontainers');
  } catch (error) {
    return {
      skipped: `testcontainers cannot load (${error instanceof Error ? error.message : String(error)}) and MEMLEDGER_TEST_ESDB_URL unset`,
    };
  }
  if (!(await engineAnswers(testcontainers))) return { skipped: 'no Docker engine and MEMLEDGER_TEST_ESDB_URL unset' };
  // Started on first use and shared by every store the suite opens.
  let started: ReturnType<typeof start> | undefined;
  const start = () =>
    new testcontainers.GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_CLUSTER_SIZE: '1',
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_MEM_DB: 'true',
        // Projections fill $all with system events, which readers must skip.
        EVENTSTORE_RUN_PROJECTIONS: 'All',
        EVENTSTORE_START_STANDARD_PROJECTIONS: 'true',
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(testcontainers.Wait.forHttp('/health/live', HTTP_PORT).forStatusCodeMatching((code) => code >= 200 && code < 300))
      .withStartupTimeout(120_000)
      .start();
  return {
    label: `testcontainers ${IMAGE}`,
    url: async () => {
      const container = await (started ??= start());
      return `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`;
    },
    stop: async () => {
      await (await started)?.stop();
    },
  };
}

async function engineAnswers(testcontainers: typeof import('testcontainers')): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ENGINE_PROBE_MS);
    timer.unref();
  });
  const probe = testcontainers.getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const found = await findEventStoreDB();

if ('skipped' in found) {
  console.info(`EventStoreDB: skipped — ${found.skipped}`);
  describe.skip('event store contract: EventStoreDB (real server)', () => {
    it(`skipped — ${found.skipped}`, () => undefined);
  });
} else {
  // The server's clock cannot be stepped; the adapter's (which stamps recordedAt) can.
  const clock = new SteppingClock();
  describeEventStoreContract({
    name: `EventStoreDB (${found.label})`,
    open: async () => openEsdbEventStore(await found.url(), { streamPrefixes: [CONTRACT_STREAM_PREFIX], clock: clock.now }),
    close: found.stop,
    // The server's default MaxAppendSize (the container runs with defaults).
    capabilities: { maxAppendBytes: 1024 * 1024, clock },
  });
}
