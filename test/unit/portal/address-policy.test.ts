import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkWrittenAddress, isPublicAddress, publicOnlyLookup } from '../../../src/main/portal/address-policy';

/**
 * Issue 21: where a portal's redirects and resource URLs may lead. Only the classification and
 * the lookup are exercised here: nothing is connected to.
 */
describe('public addresses', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and reserved ranges, in both families', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254', // cloud metadata
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '[::1]',
      'not-an-address',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });

  it('refuses an address written in a URL, and localhost, without resolving anything', () => {
    expect(() => checkWrittenAddress(new URL('http://127.0.0.1:5000/api/3/action/package_list'))).toThrow(
      /127\.0\.0\.1, a local or private/,
    );
    expect(() => checkWrittenAddress(new URL('http://[::1]/x'))).toThrow(/::1/);
    expect(() => checkWrittenAddress(new URL('http://169.254.169.254/latest/meta-data/'))).toThrow(/169\.254\.169\.254/);
    expect(() => checkWrittenAddress(new URL('http://localhost:8080/'))).toThrow(/localhost/);
    expect(() => checkWrittenAddress(new URL('https://dati.example.it/file.csv'))).not.toThrow();
    expect(() => checkWrittenAddress(new URL('http://8.8.8.8/x'))).not.toThrow();
  });

  it('a lookup that fails a name any of whose addresses is not public, and passes public ones through', async () => {
    const fixed =
      (addresses: { address: string; family: number }[]): LookupFunction =>
      (_host, _opts, cb) =>
        (cb as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    const resolve = (lookup: LookupFunction, all: boolean) =>
      new Promise<unknown>((done) => lookup('name.test', { all }, (err, address, family) => done(err ?? { address, family })));
    const mixed = publicOnlyLookup(
      fixed([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ]),
    );
    expect(await resolve(mixed, true)).toMatchObject({ code: 'EDESKSTORE_FORBIDDEN_ADDRESS', address: '10.0.0.1' });
    const good = publicOnlyLookup(fixed([{ address: '93.184.216.34', family: 4 }]));
    expect(await resolve(good, false)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await resolve(good, true)).toEqual({ address: [{ address: '93.184.216.34', family: 4 }], family: undefined });
  });
});
