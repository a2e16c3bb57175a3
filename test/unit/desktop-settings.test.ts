import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDesktopSettings } from '../../electron/main/settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'desktop-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the desktop app's port", () => {
  it("is 4781 when nothing names one, not serve's 4780 (both may run on one PC)", () => {
    expect(readDesktopSettings(dir, {}, []).port).toBe(4781);
  });

  it('comes from desktop.json, with the environment over it; an empty variable sets nothing', () => {
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port: 5100 }));
    expect(readDesktopSettings(dir, {}, []).port).toBe(5100);
    expect(readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_PORT: '' }, []).port).toBe(5100);
    expect(readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_PORT: '5200' }, []).port).toBe(5200);
    expect(readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_PORT: '0' }, []).port).toBe(0);
  });

  it('refuses what is not a port, naming where it came from', () => {
    for (const text of ['65536', '-1', '4781.5', ' 4781', '1e3']) {
      expect(() => readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_PORT: text }, [])).toThrow(
        `RETURNS_STATION_DESKTOP_PORT must be a port from 0 to 65535, got "${text}".`,
      );
    }
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port: 70_000 }));
    expect(() => readDesktopSettings(dir, {}, [])).toThrow(/desktop\.json: port: /);
  });
});

describe("the desktop app's host", () => {
  it('is loopback unless desktop.json or the environment names another; a bad one is refused, naming where it came from', () => {
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({}));
    expect(readDesktopSettings(dir, {}, []).host).toBe('127.0.0.1');
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ host: '0.0.0.0', tlsCert: '/etc/site.crt', tlsKey: '/etc/site.key' }));
    expect(readDesktopSettings(dir, {}, [])).toMatchObject({ host: '0.0.0.0', tlsCert: '/etc/site.crt', tlsKey: '/etc/site.key' });
    expect(readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_HOST: 'dock-hub.local' }, []).host).toBe('dock-hub.local');
    expect(readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_HOST: '' }, []).host).toBe('0.0.0.0');
    expect(() => readDesktopSettings(dir, { RETURNS_STATION_DESKTOP_HOST: 'http://x' }, [])).toThrow(
      'RETURNS_STATION_DESKTOP_HOST must be an IP address or a host name, got "http://x".',
    );
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ host: 'a b' }));
    expect(() => readDesktopSettings(dir, {}, [])).toThrow(/desktop\.json: host: an IP address or a host name/);
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({}));
  });
});
