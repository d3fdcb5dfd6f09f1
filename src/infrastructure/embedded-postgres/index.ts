// The embedded PostgreSQL default: used when no connection is configured.
export { acquireEmbeddedServer, embeddedServerRunning, APP_DATABASE, type EmbeddedServer, type EmbeddedServerOptions } from './server.js';
export { EmbeddedServerError, EmbeddedServerNotBack } from './errors.js';
export { folderLayout, type FolderLayout } from './folder-layout.js';
export { embeddedServerStatus, stopEmbeddedServer, EmbeddedServerInUse, type EmbeddedServerStatus } from './server-control.js';
export type { ReviveOutcome } from './server-revive.js';
