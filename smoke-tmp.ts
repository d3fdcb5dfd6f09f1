import { randomUUID } from 'node:crypto';
import { startEsdbWireDouble } from './test/support/esdb-wire-double/server.js';
import { openEsdbEventStore } from './src/infrastructure/event-store/esdb/esdb-event-store.js';
const scenario = process.argv[2];
const double = await startEsdbWireDouble({ serverFeatures: 'unimplemented' });
const store = openEsdbEventStore(double.url);
const ev = (type: string) => ({ id: randomUUID(), type, data: { a: 1 }, metadata: { schemaVersion: 1 } });
if (scenario !== 'noappend') await store.append('x', [ev('A')], { expectedRevision: 'any' });
if (scenario === 'noappend') { double.log.commit('y', { kind: 'any' }, [{ id: randomUUID(), type: 'T', contentType: 'application/json', data: Buffer.from('{}'), customMetadata: Buffer.from('{}') }]); await store.readStream('y').catch((e) => console.log('expected', e.name)); }
if (scenario === 'unreadable') {
  double.log.commit('y', { kind: 'any' }, [{ id: randomUUID(), type: 'T', contentType: 'application/json', data: Buffer.from('{}'), customMetadata: Buffer.from('{}') }]);
  await store.readStream('y').catch((e) => console.log('expected', e.name));
}
if (scenario === 'binary') {
  double.log.commit('z', { kind: 'any' }, [{ id: randomUUID(), type: 'T', contentType: 'application/octet-stream', data: Buffer.from('xyz'), customMetadata: Buffer.from('{"schemaVersion":1}') }]);
  await store.readAll({ filter: { streamPrefixes: ['z'] } }).catch((e) => console.log('expected', e.name));
}
if (scenario === 'sub') {
  const sub = store.subscribeAll();
  for await (const e of sub) { console.log('got', e.type); break; }
}
if (scenario === 'wev') {
  await store.append('x', [ev('B')], { expectedRevision: 7 }).catch((e) => console.log('expected', e.name));
}
const t = Date.now();
const timer = setTimeout(() => { console.log('close hangs'); process.exit(1); }, 5000);
await store.close();
clearTimeout(timer);
console.log(scenario, 'closed in', Date.now() - t);
await double.close();
