import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../../src/main/ipc/trusted-sender';

/** Issue 8: IPC handlers answer only the app's own page (Electron cannot run here; this is the decision). */
describe('IPC sender check', () => {
  const app = 'http://127.0.0.1:41234';

  it('trusts the app’s own page in the top frame, whatever its route', () => {
    expect(isTrustedSender({ url: `${app}/it/#/import`, isMainFrame: true }, app)).toBe(true);
    expect(isTrustedSender({ url: `${app}/en/`, isMainFrame: true }, app)).toBe(true);
  });

  it.each([
    ['another site', { url: 'https://evil.example/', isMainFrame: true }],
    ['another local port', { url: 'http://127.0.0.1:41235/', isMainFrame: true }],
    ['the same port under another name', { url: 'http://localhost:41234/', isMainFrame: true }],
    ['an embedded frame of the app', { url: `${app}/en/`, isMainFrame: false }],
    ['a file: page', { url: 'file:///home/me/x.html', isMainFrame: true }],
    ['a data: page', { url: 'data:text/html,<p>x</p>', isMainFrame: true }],
    ['an unparsable URL', { url: 'not a url', isMainFrame: true }],
  ])('refuses %s', (_label, frame) => {
    expect(isTrustedSender(frame, app)).toBe(false);
  });

  it('refuses a frame that is gone', () => {
    expect(isTrustedSender(null, app)).toBe(false);
    expect(isTrustedSender(undefined, app)).toBe(false);
  });
});
