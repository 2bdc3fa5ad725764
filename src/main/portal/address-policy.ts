import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { message } from '../../shared/messages';
import { PortalError } from './portal-errors';

/**
 * Where a portal may send Deskstore (docs/security.md, "portal addresses"): its own origin, or
 * public addresses. A redirect or a resource URL of a hostile portal pointed at link-local
 * metadata services and at other local ports (the local Deskstore's own `package_list` was
 * fetched and imported). Any other origin must resolve to public addresses only, checked on
 * the address the connection is made to (the lookup the socket itself uses), so a name that
 * resolves to a public address when checked and to 127.0.0.1 when connecting (DNS rebinding)
 * gets nowhere. Through a proxy the proxy resolves names: then only addresses written in URLs
 * are checked.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
}

/** Whether `ip` is an address on the public internet (not loopback, private, link-local, …). */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, NAT64 64:ff9b::7f00:1) is that address.
  const embedded = /^(?:::ffff:|64:ff9b::)((?:\d+\.){3}\d+)$/i.exec(address)?.[1] ?? mappedHex(address);
  if (embedded) return isPublicAddress(embedded);
  return !NOT_PUBLIC.check(address, 'ipv6');
}

/** `::ffff:7f00:1` and `64:ff9b::7f00:1` as dotted IPv4. */
function mappedHex(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!m) return null;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The refusal, in the user's words: `url` leads to `address`, which only the portal's own origin may use. */
export function forbiddenAddress(url: string, address: string): PortalError {
  return new PortalError(
    message(
      'portal.forbidden_address',
      `${url} leads to ${address}, a local or private address; only the portal's own address may be one. Nothing was sent there.`,
      { url, address },
    ),
  );
}

/** The code a refused lookup fails the connection with (portal-client.ts turns it into forbiddenAddress). */
export const FORBIDDEN_ADDRESS_CODE = 'EDESKSTORE_FORBIDDEN_ADDRESS';

/**
 * A `lookup` for sockets (undici's `connect.lookup`, passed to net.connect) that resolves with
 * `resolve` and refuses a name any of whose addresses is not public.
 */
export function publicOnlyLookup(resolve: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }];
      const refused = list.find((a) => !isPublicAddress(a.address));
      if (refused || !list.length) {
        const error = Object.assign(new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}`), {
          code: FORBIDDEN_ADDRESS_CODE,
          address: refused?.address ?? '',
        });
        return callback(error, '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** An address written in the URL itself (no lookup happens for it): refused unless public. */
export function checkWrittenAddress(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw forbiddenAddress(url.toString(), host);
  if (host === 'localhost' || host.endsWith('.localhost')) throw forbiddenAddress(url.toString(), host);
}
