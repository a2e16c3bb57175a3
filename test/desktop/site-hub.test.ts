import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { keepStationCertificates } from '../../electron/station/tls/station-certificates.ts';
import { useShells } from './shell-process.ts';

/*
 * The desktop app as the site's hub (docs/decisions/hub-tls.md): desktop.json's `host` beyond loopback
 * serves HTTPS on the fixed port with the station's own certificate authority, the same one at every
 * start; its window trusts exactly the certificate its station serves. Built app, Electron stand-in.
 */

const { dataDir, shell } = useShells('desktop-hub-');

describe('the desktop app as a hub', () => {
  it("serves HTTPS on the site's network with the certificate it keeps, and its window trusts that certificate alone", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ host: '0.0.0.0' }));
    const app = shell(dir);
    const url = new URL(await app.loaded);
    expect(url.protocol).toBe('https:');

    const ca = readFileSync(join(dir, 'tls', 'site-ca.pem'), 'utf8');
    const served = readFileSync(join(dir, 'tls', 'serving.pem'), 'utf8');
    const trusting = fetchTrusting({ ca });
    expect((await trusting(`${url.origin}/healthz`)).status).toBe(200);
    await expect(fetch(`${url.origin}/healthz`)).rejects.toThrow();

    // The window: its station's certificate on its station's host; not another certificate, not another host.
    const verify = (hostname: string, pem: string) => app.ask<number | string>({ type: 'verify-certificate', hostname, pem });
    expect(await verify(url.hostname, served)).toBe(0);
    expect(await verify('elsewhere.example', served)).toBe(-3);
    const stranger = await keepStationCertificates(dataDir(), { dns: ['localhost'], ips: [url.hostname] }, Date.now());
    expect(await verify(url.hostname, stranger.certPem)).toBe(-3);

    const first = (await app.record()).windows[0]?.loadedUrl;
    expect(await app.ask({ type: 'quit' })).toBeTruthy();
    expect((await app.exited).code).toBe(0);

    // The same certificate at the next start (nobody has to trust anything new).
    const again = shell(dir);
    const againUrl = new URL(await again.loaded);
    expect(againUrl.protocol).toBe('https:');
    expect(readFileSync(join(dir, 'tls', 'site-ca.pem'), 'utf8')).toBe(ca);
    expect(readFileSync(join(dir, 'tls', 'serving.pem'), 'utf8')).toBe(served);
    expect(first).toMatch(/^https:/);
    expect(await again.ask({ type: 'quit' })).toBeTruthy();
    expect((await again.exited).code).toBe(0);
  }, 60_000);

  it('on loopback (the default) stays plain HTTP and leaves certificates to Chromium', async () => {
    const app = shell(dataDir());
    const url = new URL(await app.loaded);
    expect(url.protocol).toBe('http:');
    expect(await app.ask({ type: 'verify-certificate', hostname: url.hostname, pem: 'not a certificate' })).toBe(-3);
    expect(await app.ask({ type: 'quit' })).toBeTruthy();
    expect((await app.exited).code).toBe(0);
  }, 60_000);

  it('refuses a bad host in desktop.json, saying which setting', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ host: 'not a host!' }));
    const { code, record } = await shell(dir).exited;
    expect(code).toBe(1);
    expect(record?.errorBoxes[0]?.content).toContain('host: an IP address or a host name');
  }, 30_000);
});
