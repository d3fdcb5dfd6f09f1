// `memledger mcp`: the MCP server on stdin/stdout for one tenant (and, when
// given, the namespaces its subjects must lie in), until stdin ends or a
// SIGTERM/SIGINT. The ledger is opened once; every read catches the
// projections up through the caller's own writes first, as the CLI does.
// stdout carries only the protocol: notices and failures go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readSideErasureChecks } from '../queries/erasure/index.js';
import { catchUpWith, openReadSide } from '../queries/read-side.js';
import type { OpenLedger } from '../runtime/open-ledger.js';
import type { McpDoor } from './door.js';
import { createMcpServer } from './server.js';
import { PACKAGE_VERSION } from './version.js';

export interface StdioOptions {
  readonly tenant: string;
  readonly namespaces: readonly string[];
}

/** Serves until stdin closes or a stop signal; resolves after the read side is closed (the caller closes the ledger). */
export async function serveMcpOnStdio(ledger: OpenLedger, options: StdioOptions): Promise<void> {
  const read = await openReadSide(ledger, { tokenizer: true });
  const readYourWrites = async (streams: readonly string[]) => {
    await catchUpWith(read, streams);
  };
  const door: McpDoor = {
    ledger,
    read,
    tenant: options.tenant,
    namespaces: options.namespaces,
    actor: 'mcp',
    // The operator who starts the process holds the ledger's credentials: every tool is theirs.
    may: () => true,
    readYourWrites,
    erasure: (streams) => ({
      checks: readSideErasureChecks(read),
      beforeVerify: (stream) => readYourWrites([...new Set([...streams, stream])]),
    }),
  };
  const mcp = createMcpServer(door, {
    version: PACKAGE_VERSION,
    onUnexpected: (error, tool) =>
      process.stderr.write(
        `${JSON.stringify({ error: 'internal', tool, message: error instanceof Error ? error.message : String(error) })}\n`,
      ),
  });
  const transport = new StdioServerTransport();
  try {
    const ended = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await mcp.connect(transport);
    await ended;
  } finally {
    await mcp.close().catch(() => undefined);
    await read.close();
  }
}
