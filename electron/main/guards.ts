import { X509Certificate } from 'node:crypto';

/*
 * The desktop shell's security guards as plain functions of plain values, so they are unit-tested
 * without Electron (test/desktop/guards.test.ts) and installed by window.ts. The window shows one
 * origin only: the station's own, on a loopback port chosen at start.
 */

/** True when `url` is on exactly `origin` (scheme, host and port), never a look-alike prefix. */
export function isOwnOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

export interface PermissionRequest {
  permission: string;
  /** The URL of the frame that asks: its origin decides, not the top-level page's. */
  requestingUrl: string;
  /** For `media`: what is asked for (`video`, `audio`). */
  mediaTypes?: readonly string[];
}

/**
 * The camera is the only permission the station UI needs: `media` with video alone, asked by a
 * frame on the station's own origin. Microphone, notifications, geolocation, … are refused.
 */
export function allowsPermission(request: PermissionRequest, origin: string): boolean {
  if (request.permission !== 'media' || !isOwnOrigin(request.requestingUrl, origin)) return false;
  const types = request.mediaTypes ?? [];
  return types.length > 0 && types.every((type) => type === 'video');
}

/**
 * Electron's permission *check* (asked synchronously, e.g. by `enumerateDevices`) has no media types;
 * it may answer yes for `media` on the station's origin, as the request handler still decides per use.
 * `hid` too: the station's page reads a USB scale through WebHID (renderer/src/scale/hid-scale.ts),
 * and which devices it may open is decided per device (allowsHidDevice).
 */
export function allowsPermissionCheck(permission: string, requestingOrigin: string, origin: string): boolean {
  return (permission === 'media' || permission === 'hid') && isOwnOrigin(requestingOrigin, origin);
}

/**
 * A device the station's page may open through WebHID: HID, asked for by the station's own origin.
 * The page asks only for scales (a `usagePage` filter of 0x8D, the weighing devices), and Chromium
 * offers only those.
 */
export function allowsHidDevice(deviceType: string, requestingOrigin: string, origin: string): boolean {
  return deviceType === 'hid' && isOwnOrigin(requestingOrigin, origin);
}

export interface IpcSender {
  /** The sending frame's URL. */
  frameUrl: string;
  /** Whether the sending frame is its page's main frame. */
  isMainFrame: boolean;
  /** The id of the sender's web contents. */
  webContentsId: number;
}

/** The connection (URL and station token) goes only to the station window's own main frame. */
export function mayReceiveConnection(sender: IpcSender, windowWebContentsId: number | undefined, origin: string): boolean {
  return sender.isMainFrame && sender.webContentsId === windowWebContentsId && isOwnOrigin(sender.frameUrl, origin);
}

/** The window never navigates away from the station; links to elsewhere are not followed. */
export function mayNavigate(url: string, origin: string): boolean {
  return isOwnOrigin(url, origin);
}

/** Chromium's answers to a certificate check (Electron's `setCertificateVerifyProc`): accept, or its own verification. */
export const CERTIFICATE_TRUSTED = 0;
export const CERTIFICATE_CHROMIUM_DECIDES = -3;

/**
 * The window trusts exactly the certificate its station serves, on the station's own host: a hub on
 * the site's network serves one made under the station's own authority, which the system does not
 * know. Anything else is left to Chromium's own verification (which refuses an unknown authority).
 */
export function certificateAnswer(hostname: string, certificatePem: string, origin: string, servedPem: string | null): number {
  if (servedPem === null) return CERTIFICATE_CHROMIUM_DECIDES;
  try {
    const own = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
    if (hostname.replace(/^\[(.*)\]$/, '$1') !== own) return CERTIFICATE_CHROMIUM_DECIDES;
    return new X509Certificate(certificatePem).fingerprint256 === new X509Certificate(servedPem).fingerprint256
      ? CERTIFICATE_TRUSTED
      : CERTIFICATE_CHROMIUM_DECIDES;
  } catch {
    return CERTIFICATE_CHROMIUM_DECIDES;
  }
}
