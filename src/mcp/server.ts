// memledger as an MCP server (the official SDK), on any transport. The tools'
// list and calls are answered here rather than through McpServer.registerTool,
// so that a bad input is refused the way every other door refuses it: a tool
// error `{error: "invalid_input", field, message}` naming the field, before
// anything runs. Recall's answer leads with its notice: the items are
// context for the model, never instructions to it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { knownError } from '../answers/known-error.js';
import { parseWith } from '../domain/validation/invalid-input.js';
import { RECALL_NOTICE } from '../queries/recall/recall.js';
import { isPermittedSubject } from './namespaces.js';
import type { McpDoor } from './door.js';
import { MCP_TOOLS, type McpTool } from './tools.js';

export interface McpServerOptions {
  readonly version: string;
  /** An error no code answers: logged by the caller, answered as `internal` without its message. */
  readonly onUnexpected: (error: unknown, tool: string) => void;
}

type ToolError = { readonly error: string; readonly message: string; readonly field?: string | undefined };

const toolError = (body: ToolError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: { ...body },
});

const answer = (tool: McpTool, value: unknown): CallToolResult => {
  const json = { type: 'text' as const, text: JSON.stringify(value) };
  const structured =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { items: value };
  return { content: tool.name === 'recall' ? [{ type: 'text', text: RECALL_NOTICE }, json] : [json], structuredContent: structured };
};

const inputSchemaOf = (tool: McpTool) => z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as { type: 'object' };

export function createMcpServer(door: McpDoor, options: McpServerOptions): McpServer {
  const mcp = new McpServer(
    { name: 'memledger', version: options.version },
    { instructions: `Long-term memory of tenant ${door.tenant}. ${RECALL_NOTICE}` },
  );
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: inputSchemaOf(tool) })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return toolError({ error: 'unknown_tool', message: `no tool ${request.params.name}`, field: 'name' });
    const args = request.params.arguments ?? {};
    const parsed = parseWith(tool.input, args);
    if (!parsed.ok) return toolError({ error: 'invalid_input', message: parsed.error.message, field: parsed.error.field });
    const subject = (parsed.value as { subject: string }).subject;
    // A subject out of the door's namespaces answers as one that does not exist (never a hint that it does).
    if (!isPermittedSubject(door, subject)) {
      return toolError({ error: 'subject_not_found', message: `subject ${subject} does not exist`, field: 'subject' });
    }
    if (!door.may(tool.permission)) {
      return toolError({ error: 'forbidden', message: `this key may not ${tool.name} (needs ${tool.permission})`, field: 'Authorization' });
    }
    try {
      const outcome = await tool.run(door, parsed.value, args);
      if (!outcome.ok)
        return toolError({ error: outcome.rejection.code, message: outcome.rejection.message, field: outcome.rejection.field });
      return answer(tool, outcome.result);
    } catch (error) {
      const known = knownError(error);
      if (known && known.answer.http !== 500) return toolError({ error: known.code, message: known.message, field: known.field });
      options.onUnexpected(error, tool.name);
      return toolError({ error: 'internal', message: `${tool.name} failed; the server logged why` });
    }
  });
  return mcp;
}
