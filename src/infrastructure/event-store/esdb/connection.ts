// What openEsdbEventStore is given, checked before any call goes out: the
// store's own stream prefixes and the connection string.
import { EventStoreDBClient } from '@eventstore/db-client';
import { z } from 'zod';
import { InvalidEventStoreInput } from '../postgres/input.js';

const scopeSchema = z
  .array(
    z
      .string()
      .min(1)
      .refine((prefix) => !prefix.startsWith('$'), 'must not name system streams'),
  )
  .min(1);

/** The client (it connects lazily, on its first call) and the scope, or InvalidEventStoreInput naming the field. */
export function esdbConnection(url: string, streamPrefixes: readonly string[]): { client: EventStoreDBClient; scope: string[] } {
  const scope = scopeSchema.safeParse(streamPrefixes);
  if (!scope.success) throw new InvalidEventStoreInput('streamPrefixes', scope.error.issues[0]!.message);
  if (!/^esdb(\+discover)?:\/\//.test(url)) {
    throw new InvalidEventStoreInput('url', 'expected esdb:// or esdb+discover:// (the connection strings client 6.2.1 parses)');
  }
  try {
    return { client: EventStoreDBClient.connectionString(url), scope: scope.data };
  } catch (error) {
    throw new InvalidEventStoreInput('url', error instanceof Error ? error.message : String(error));
  }
}
