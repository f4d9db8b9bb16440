/**
 * Which hosts of an app's declared origins are this computer or its local network, as the browser
 * will read them: the WHATWG URL parser first (so `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`,
 * `%31%32%37.0.0.1` and `[::ffff:127.0.0.1]` are all 127.0.0.1), then address blocks, not spellings.
 * A public name that resolves to such an address is not seen here (that needs DNS, which can change
 * after the check); the browser's own private-network rules are the layer below.
 */
import { BlockList, isIP } from 'node:net';

const LOCAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the loopback listeners on Linux and macOS
  ['127.0.0.0', 8],
  ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], // private networks (routers, NAS, printers)
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['100.64.0.0', 10], // carrier-grade NAT, also used by tailnets
] as const) LOCAL.addSubnet(net, bits, 'ipv4');
// ::/96 holds ::, ::1 and the deprecated IPv4-compatible form (`[::127.0.0.1]` is `[::7f00:1]`); then ULA and link-local.
for (const [net, bits] of [['::', 96], ['fc00::', 7], ['fe80::', 10]] as const) LOCAL.addSubnet(net, bits, 'ipv6');

/** The host as a browser resolves it (lower case, IPv4 forms normalised, IPv6 bracketed), or undefined when it is no host. */
export function normalisedHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname || undefined;
  } catch { return undefined; }
}

/** True when `host` (as declared) names this computer or an address of the local network. */
export function isLocalNetworkHost(host: string): boolean {
  const h = normalisedHost(host.startsWith('*.') ? host.slice(2) : host);
  if (h === undefined) return false;
  const name = h.replace(/\.$/, '');
  // Browsers resolve `localhost` and every `*.localhost` name to loopback themselves (RFC 6761).
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const ip = name.startsWith('[') ? name.slice(1, -1) : name;
  const family = isIP(ip);
  // BlockList checks IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 blocks too.
  return family === 4 ? LOCAL.check(ip, 'ipv4') : family === 6 ? LOCAL.check(ip, 'ipv6') : false;
}
