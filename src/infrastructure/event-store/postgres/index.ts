export { openPostgresEventStore, type OpenPostgresEventStoreOptions } from './open.js';
export { PostgresEventStore, EventStoreClosed } from './store.js';
export { InvalidEventStoreInput } from './input.js';
