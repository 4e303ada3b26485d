// WebRTC is closed in rendered pages: a page that asks for a peer connection with a STUN/TURN
// server on loopback (in its own frame, a blank or srcdoc iframe, or a popup) sends no UDP packet
// there, whether or not private networks are allowed. The guard proxy sees only TCP, so this is
// the only thing that stops it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import dgram from 'node:dgram';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { forbiddenAddressReason } from '../net/ssrf.ts';
import { requireChromium, testBrowserPool } from './testing.ts';

let udp: dgram.Socket;
let packets = 0;
let site: FixtureSite;

/** Every way a page script could reach an RTCPeerConnection; each reports what it managed. */
function leakyPage(port: number): string {
  const servers = JSON.stringify([
    { urls: `stun:127.0.0.2:${port}` },
    { urls: `turn:127.0.0.2:${port}?transport=udp`, username: 'u', credential: 'p' },
  ]);
  return `<!doctype html><title>leak</title><p>peer</p><script>
    const results = [];
    const tryPeer = (label, win) => {
      try {
        const Peer = win.RTCPeerConnection || win.webkitRTCPeerConnection;
        const pc = new Peer({ iceServers: ${servers} });
        pc.createDataChannel('x');
        pc.createOffer().then((offer) => pc.setLocalDescription(offer));
        results.push(label + ':opened');
      } catch (err) { results.push(label + ':refused'); }
    };
    tryPeer('page', window);
    const blank = document.createElement('iframe'); document.body.appendChild(blank); tryPeer('blank-iframe', blank.contentWindow);
    const srcdoc = document.createElement('iframe'); srcdoc.srcdoc = '<p>x</p>'; document.body.appendChild(srcdoc);
    srcdoc.onload = () => tryPeer('srcdoc-iframe', srcdoc.contentWindow);
    const popup = window.open('about:blank'); if (popup) tryPeer('popup', popup);
    window.results = results;
  </script>`;
}

beforeAll(async () => {
  requireChromium();
  udp = dgram.createSocket('udp4');
  udp.on('message', () => packets++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.2', () => resolve()));
  site = startFixtureSite({ '/': leakyPage(udp.address().port) });
});
afterAll(async () => {
  udp.close();
  await site.stop();
});

for (const allowPrivateNetwork of [false, true]) {
  describe(`private networks ${allowPrivateNetwork ? 'allowed' : 'refused'}`, () => {
    // The fixture site plays a public server on 127.0.0.1; the STUN server's 127.0.0.2 stays forbidden.
    const pool = testBrowserPool(
      { fetch: { allowPrivateNetwork } },
      { addressPolicy: (a) => (a === '127.0.0.1' ? null : forbiddenAddressReason(a)) },
    );
    afterAll(() => pool.close());

    test('no STUN/TURN packet leaves for a server on loopback, from any frame', async () => {
      packets = 0;
      const results = await pool.withPage({}, async ({ page }) => {
        await page.goto(site.at('/'));
        // ICE gathering sends its first STUN binding requests within milliseconds; wait well past that.
        await Bun.sleep(1500);
        return page.evaluate(() => (window as unknown as { results: string[] }).results);
      });
      expect(results).toEqual(expect.arrayContaining(['page:refused', 'blank-iframe:refused', 'srcdoc-iframe:refused']));
      expect(results.filter((r) => r.endsWith(':opened'))).toEqual([]);
      expect(packets).toBe(0);
    });
  });
}
