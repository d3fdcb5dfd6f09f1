// The memory projection's tables as readers see them: the schema the
// registry names active, read in one transaction that holds the readers'
// lock, so a rebuild's swap never cuts a read off mid-way.
import type { Kysely } from 'kysely';
import { memoryProjection } from '../projections/memory/definition.js';
import type { MemoryProjectionDb } from '../projections/memory/tables.js';
import { readActive } from '../projections/runtime/read-active.js';
import type { ProjectionsKysely } from '../projections/runtime/schema-handles.js';

export function readMemoryTables<T>(projections: ProjectionsKysely, read: (tables: Kysely<MemoryProjectionDb>) => Promise<T>): Promise<T> {
  return readActive<MemoryProjectionDb, T>(projections, memoryProjection.name, (tables) => read(tables));
}
