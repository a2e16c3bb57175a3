import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SerialPort as SerialPortClass } from 'serialport';
import type { StationScale } from '#shared/api/scale.ts';

/*
 * The byte link to a scale: a serial port (the `serialport` library: Linux, macOS and Windows ports,
 * USB-serial adapters included) or a TCP connection (a network scale, or a serial device server in
 * front of one). Both are duplex streams; the read (read.ts) writes requests and listens for answers.
 */

/** Opens the link, or rejects with why it cannot be opened in a worker's words. */
export type OpenLink = (scale: StationScale, timeoutMs: number) => Promise<Duplex>;

export const openLink: OpenLink = (scale, timeoutMs) => (scale.kind === 'serial' ? openSerial(scale, timeoutMs) : openTcp(scale, timeoutMs));

export class LinkRefused extends Error {}

async function openSerial(scale: Extract<StationScale, { kind: 'serial' }>, timeoutMs: number): Promise<Duplex> {
  // Loaded on first use: a system without the library's native part loses serial scales only.
  let SerialPort: typeof SerialPortClass;
  try {
    ({ SerialPort } = await import('serialport'));
  } catch (error) {
    throw new LinkRefused(`This station cannot open serial ports (${(error as Error).message}): use a network scale, or the desktop app's USB scale.`);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new LinkRefused(`The serial port ${scale.path} did not open within ${timeoutMs} ms.`)), timeoutMs);
    const port = new SerialPort({ path: scale.path, baudRate: scale.baud_rate, dataBits: 8, parity: 'none', stopBits: 1, autoOpen: false });
    port.open((error) => {
      clearTimeout(timer);
      if (error) reject(new LinkRefused(serialProblem(scale.path, error)));
      else resolve(port);
    });
  });
}

/** Why a serial port does not open, in words a worker can act on (the system's reason stays at the end). */
export function serialProblem(path: string, error: Error & { code?: string }): string {
  const why = `${error.code ?? ''} ${error.message}`;
  if (/ENOENT|No such file|cannot find|not found/i.test(why))
    return `There is no serial port ${path}: is the scale's cable (or its USB adapter) plugged in? (${error.message})`;
  if (/EACCES|Permission denied|Access denied/i.test(why))
    return `The station may not open ${path}: on Linux, add the station's user to the dialout group. (${error.message})`;
  if (/EBUSY|busy|locked/i.test(why)) return `${path} is held by another program: close it and try again. (${error.message})`;
  return `The serial port ${path} did not open: ${error.message}`;
}

function openTcp(scale: Extract<StationScale, { kind: 'tcp' }>, timeoutMs: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: scale.host, port: scale.port });
    const at = `${scale.host}:${scale.port}`;
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new LinkRefused(`The scale at ${at} cannot be reached on the network: is it on and plugged in? (no answer within ${timeoutMs} ms)`));
    });
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new LinkRefused(tcpProblem(at, error))));
  });
}

function tcpProblem(at: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `Nothing answers at ${at}: is the scale (or its serial server) on, and is that its address and port? (${error.code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No device is known by the name in ${at} on the network: check the scale's address. (${error.code})`;
    default:
      return `The scale at ${at} cannot be reached on the network: is it on and plugged in? (${error.code ?? error.message})`;
  }
}
