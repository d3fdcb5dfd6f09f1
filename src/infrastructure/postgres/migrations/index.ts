// Every migration of the app's PostgreSQL schema, in the order they run.
// Kysely runs them by name (alphabetically), so names start with a zero-padded
// number; to add one, add a file and one line here. Never rename or remove an
// applied migration.
import type { Migration } from 'kysely';
import { eventStoreMigration } from './0001-event-store.js';
import { keyStoreMigration } from './0002-key-store.js';
import { projectionRegistryMigration } from './0003-projection-registry.js';
import { apiKeysMigration } from './0004-api-keys.js';
import { artifactKeysMigration } from './0005-artifact-keys.js';
import { retentionPoliciesMigration } from './0006-retention-policies.js';
import { memoryVectorsMigration } from './0007-memory-vectors.js';
import { reviewerRoleMigration } from './0008-reviewer-role.js';
import { keyScopesMigration } from './0009-key-scopes.js';
import { memoryKeyMakingMigration } from './0010-memory-key-making.js';
import { memoryKeyMasterCheckMigration } from './0011-memory-key-master-check.js';
import { memoryKeysGroupedMigration } from './0012-memory-keys-grouped.js';
import { memoryKeyEpochMigration } from './0013-memory-key-epoch.js';

export const migrations: Readonly<Record<string, Migration>> = {
  '0001_event_store': eventStoreMigration,
  '0002_key_store': keyStoreMigration,
  '0003_projection_registry': projectionRegistryMigration,
  '0004_api_keys': apiKeysMigration,
  '0005_artifact_keys': artifactKeysMigration,
  '0006_retention_policies': retentionPoliciesMigration,
  '0007_memory_vectors': memoryVectorsMigration,
  '0008_reviewer_role': reviewerRoleMigration,
  '0009_key_scopes': keyScopesMigration,
  '0010_memory_key_making': memoryKeyMakingMigration,
  '0011_memory_key_master_check': memoryKeyMasterCheckMigration,
  '0012_memory_keys_grouped': memoryKeysGroupedMigration,
  '0013_memory_key_epoch': memoryKeyEpochMigration,
};
