import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../support/chromium.ts';

/**
 * Chromium trusting a station's own site certificate authority by its key (the SPKI hash), as a
 * handheld or a station that trusted it would — never told to ignore certificate errors in general.
 */
export function launchTrustingStation(dataDir: string, /** More Chromium flags (a fake camera). */ extraArgs: readonly string[] = []): Promise<Browser> {
  const ca = new X509Certificate(readFileSync(join(dataDir, 'tls', 'site-ca.pem'), 'utf8'));
  const spki = createHash('sha256')
    .update(ca.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
  const executablePath = chromiumExecutable();
  return chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`, ...extraArgs],
  });
}
