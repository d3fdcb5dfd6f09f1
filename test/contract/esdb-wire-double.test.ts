// The shared contract suite against the EventStoreDB adapter, with the real
// @eventstore/db-client talking gRPC to a wire-level double of the server
// (test/support/esdb-wire-double). This proves the adapter's wiring — the
// requests it has the client send, the answers it parses, the errors it maps —
// and runs here without Docker. It is no proof of EventStoreDB's semantics:
// the double only imitates them; test/contract/esdb.test.ts runs the same
// suite against a real server where one is reachable.
//
// Twice: once as a 21.10+ server that advertises BatchAppend through
// ServerFeatures (the client then appends with BatchAppend), once as a server
// without ServerFeatures (the client falls back to Append).
// And once more through a follower of a cluster (reads from a lagging copy,
// writes forwarded, NotLeader for leader-required calls): the adapter must
// read its writes all the same.
// The double applies appends one at a time in a single thread, so the
// concurrent-writers ordering cases run too.
import { openEsdbEventStore } from '../../src/infrastructure/event-store/esdb/esdb-event-store.js';
import { startEsdbWireDouble, type EsdbWireDouble, type EsdbWireDoubleOptions } from '../support/esdb-wire-double/server.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { CONTRACT_STREAM_PREFIX } from './event-store-fixtures.js';
import { SteppingClock } from '../support/stepping-clock.js';

const modes: Array<{ label: string; options: EsdbWireDoubleOptions }> = [
  { label: 'BatchAppend, as advertised by 21.10+ servers', options: { serverFeatures: 'advertise-batch-append' } },
  { label: 'Append, for servers without ServerFeatures', options: { serverFeatures: 'unimplemented' } },
  { label: 'connected to a follower', options: { serverFeatures: 'advertise-batch-append', connectTo: 'follower' } },
];

for (const { label, options } of modes) {
  // One clock for the server's stamps and the adapter's: a millisecond on at each reading, stepped back by the suite.
  const clock = new SteppingClock();
  let started: Promise<EsdbWireDouble> | undefined;
  const double = () => (started ??= startEsdbWireDouble({ ...options, clock: clock.now }));

  describeEventStoreContract({
    name: `EventStoreDB adapter over a wire-level gRPC double (${label})`,
    open: async () => openEsdbEventStore((await double()).url, { streamPrefixes: [CONTRACT_STREAM_PREFIX], clock: clock.now }),
    close: async () => (await started)?.close(),
    // The double's default MaxAppendSize, as 24.10's.
    capabilities: { maxAppendBytes: 1024 * 1024, clock },
  });
}
