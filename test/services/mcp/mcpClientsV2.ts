import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';

/** How a v2 client negotiates: pinned to 2026-07-28, `auto` (probe, then fall back), or the 2025 handshake. */
export type Negotiation = '2026-07-28' | 'auto' | 'legacy';

/** What a v2 client answers when the server asks it to confirm (2026-07-28 `input_required` elicitations). */
export interface ConfirmationAnswers {
  asked: string[];
  answer: 'accept' | 'decline';
}

/**
 * A client of the v2 SDK (`@modelcontextprotocol/client`) connected to the platform's `/mcp` (query: a catalogue
 * view) with `token`. With `confirmations`, it declares elicitation and answers every question with `answer`,
 * recording the messages.
 */
export async function connectV2(
  url: string,
  token: string,
  negotiation: Negotiation,
  options: { query?: string; confirmations?: ConfirmationAnswers } = {},
): Promise<Client> {
  const mode = negotiation === '2026-07-28' ? { pin: '2026-07-28' } : negotiation;
  const client = new Client(
    { name: 'forge-test-agent-v2', version: '2.0.0' },
    {
      versionNegotiation: { mode },
      ...(options.confirmations ? { capabilities: { elicitation: {} } } : {}),
    },
  );
  const confirmations = options.confirmations;
  if (confirmations) {
    client.setRequestHandler('elicitation/create', (request) => {
      confirmations.asked.push(request.params.message);
      return Promise.resolve(
        confirmations.answer === 'accept'
          ? { action: 'accept', content: { confirm: true } }
          : { action: 'decline' },
      );
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp${options.query ?? ''}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A v2 client's tool call, typed as a CallToolResult. */
export async function callV2(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
