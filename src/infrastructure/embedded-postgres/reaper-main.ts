// The reaper process (see reaper.ts): node reaper-main.js <dataDir> <lingerMs>.
import { folderLayout } from './folder-layout.js';
import { reap } from './reaper.js';

const [dataDir, linger] = process.argv.slice(2);
const lingerMs = Number(linger);
if (!dataDir || !Number.isSafeInteger(lingerMs) || lingerMs < 0) {
  process.stderr.write('usage: reaper-main <dataDir> <lingerMs>\n');
  process.exit(2);
}
// Detached from any terminal; a hang-up or an interrupt aimed at the starting command is not for us.
process.on('SIGHUP', () => undefined);
process.on('SIGINT', () => undefined);
await reap(folderLayout(dataDir), lingerMs);
