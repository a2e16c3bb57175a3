import { join } from 'node:path';
import { BrowserWindow, type Session } from 'electron';
import { allowsHidDevice, allowsPermission, allowsPermissionCheck, certificateAnswer, mayNavigate } from './guards.ts';
import type { DesktopSettings } from './settings.ts';

/** The window's own session (not `defaultSession`): its storage and permissions are the station's only. */
export const SESSION_PARTITION = 'persist:returns-station';

/**
 * Installs the permission guards on the station's session (see guards.ts for the rules). `origin`
 * gives the station's origin when asked: a restarted core may listen on another port.
 */
export function guardSession(session: Session, origin: () => string, servedCertificate: () => string | null): void {
  // Served over TLS (a hub on the site's network), the window trusts the one certificate its station
  // serves, pinned by its fingerprint on the station's own host; everything else is Chromium's to verify
  // (guards.ts, certificateAnswer). A pin, not an opt-out of TLS validation: hence the scan's finding is answered.
  const verify: Parameters<Session['setCertificateVerifyProc']>[0] = (request, callback) =>
    callback(certificateAnswer(request.hostname, request.certificate.data, origin(), servedCertificate()));
  // The scan's answer sits on the call's own line (a formatter keeps a one-line call whole).
  session.setCertificateVerifyProc(verify); // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK
  session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    callback(allowsPermission({ permission, requestingUrl: details.requestingUrl, mediaTypes }, origin()));
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => allowsPermissionCheck(permission, requestingOrigin, origin()));
  // A USB scale (WebHID): the page asks for weighing devices only, and the first one offered is taken
  // (a dock has one scale); a scale chosen once may be opened again after a restart.
  session.on('select-hid-device', (event, details, callback) => {
    event.preventDefault();
    callback(allowsHidDevice('hid', details.frame?.url ?? '', origin()) ? details.deviceList[0]?.deviceId : undefined);
  });
  session.setDevicePermissionHandler((details) => allowsHidDevice(details.deviceType, details.origin, origin()));
}

/** A sandboxed window on the station's UI (at `origin()`, the current one) that cannot be navigated or opened elsewhere. */
export function createStationWindow(session: Session, origin: () => string, settings: DesktopSettings, packaged: boolean): BrowserWindow {
  const window = new BrowserWindow({
    width: 1366,
    height: 768,
    minWidth: 1024,
    minHeight: 600,
    title: 'Returns Station',
    show: false,
    kiosk: settings.kiosk,
    autoHideMenuBar: settings.kiosk,
    webPreferences: {
      session,
      // The preload exposes one frozen object (base URL, station token, version) and nothing of Node.
      preload: join(import.meta.dirname, '../preload/index.cjs'), // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      // Devtools would show the station token: only in development, or with the debug switch.
      devTools: !packaged || settings.debug,
      spellcheck: false,
      // Middle-click would open links in a new window; new windows are refused anyway (below).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (!mayNavigate(url, origin())) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event, url) => {
    if (!mayNavigate(url, origin())) event.preventDefault();
  });
  // No <webview> can be attached to the station window.
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  return window;
}
