export type * from './port.js';
export { PostgresKeyStore, type PostgresKeyStoreOptions } from './postgres-key-store.js';
export type { RewrapResult } from './postgres-rewrap.js';
export {
  loadMasterKeyring,
  masterKey,
  parseMasterKey,
  masterKeyFilePath,
  MASTER_KEY_VARIABLE,
  PREVIOUS_MASTER_KEYS_VARIABLE,
  type MasterKey,
  type MasterKeyring,
  type MasterKeySource,
} from './master-key.js';
export { MasterKeyInvalid, MasterKeyFileExposed, MasterKeyUnknown } from './errors.js';
export {
  sealMemoryField,
  openMemoryField,
  sealSubjectField,
  openSubjectField,
  sealArtifactField,
  openArtifactField,
  subjectKeyedHash,
  type SealOutcome,
  type OpenOutcome,
  type ArtifactSealOutcome,
} from './sealing.js';
