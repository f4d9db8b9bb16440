/** An SDK client of a gateway endpoint (what VS Code's built-in client or a terminal agent is to it). */
import { Client, StreamableHTTPClientTransport, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
import type { GatewayEndpoint } from '../../src/core';

export async function connect(endpoint: GatewayEndpoint, versionNegotiation: VersionNegotiationOptions = { mode: 'legacy' }): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' }, { versionNegotiation });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }));
  return client;
}
