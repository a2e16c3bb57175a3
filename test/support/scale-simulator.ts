import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A bench scale on the wire, written from the protocols' published documents (not from the
 * station's parsers), for the station's scale tests:
 *
 * - Mettler Toledo MT-SICS (reference manual, level 0): commands in upper case closed by CR LF.
 *   `S` answers the stable weight (`S S <value> <unit>`), or `S I` when it does not settle within its
 *   own time; `SI` answers at once, `S S` when stable and `S D` while moving; `S +` / `S -` over and
 *   under its range; an unknown command `ES`. The value is right-aligned in 10 characters, the sign
 *   right before the digits.
 * - NCI / Weigh-Tronix SCP-01: commands closed by CR. `W` answers `<LF>weight+units<CR><LF>hh<CR><ETX>`,
 *   `S` and `Z` `<LF>hh<CR><ETX>`, anything else `<LF>?<CR><ETX>`. Status byte 1: bit 0 in motion,
 *   bit 1 at zero; byte 2: bit 0 under capacity, bit 1 over capacity; bits 4 and 5 always 1, bit 6
 *   of byte 2 set when a byte follows. Over or under range, the display (and so the weight field)
 *   shows out-of-range characters.
 *
 * It listens on TCP (a network scale); `onPty()` puts it behind a pseudo-terminal with Debian's
 * socat, as a serial scale on a USB adapter is seen by the station. Its faults: moving for a number
 * of requests, overload and underload, silence, garbage bytes, and hanging up (the cable pulled)
 * when a request arrives.
 */

export type SimulatedProtocol = 'mt_sics' | 'nci';

export interface ScaleState {
  /** The load on the platform, in `unit`. */
  weight: number;
  unit: 'kg' | 'g' | 'lb' | 'oz';
  decimals: number;
  /** Requests still answered "in motion" before the scale settles (Infinity: never settles). */
  movingFor: number;
  over: boolean;
  under: boolean;
  /** Never answers. */
  silent: boolean;
  /** Answers bytes that are no protocol at all, this many times (Infinity: always). */
  garbageFor: number;
  /** Hangs up the link (closes the socket, kills the pty) when the next request arrives. */
  pullCableOnRequest: boolean;
}

export interface ScaleSimulator {
  readonly port: number;
  readonly state: ScaleState;
  /** Every command line received, as sent (without its terminator). */
  readonly commands: string[];
  /** When (Date.now()) it last answered a stable weight; null before. */
  lastStableAt(): number | null;
  set(state: Partial<ScaleState>): void;
  /** A pseudo-terminal the station opens as a serial port, joined by socat to this scale. */
  onPty(): Promise<{ path: string; socat: ChildProcess }>;
  close(): Promise<void>;
}

const DEFAULT_STATE: ScaleState = {
  weight: 1.25,
  unit: 'kg',
  decimals: 2,
  movingFor: 0,
  over: false,
  under: false,
  silent: false,
  garbageFor: 0,
  pullCableOnRequest: false,
};

const GARBAGE = Buffer.from([0x00, 0xff, 0x7e, 0x13, 0x91, 0x23, 0x40, 0x0d, 0x0a, 0xfe, 0x03, 0x80]);

export async function startScaleSimulator(protocol: SimulatedProtocol, initial: Partial<ScaleState> = {}): Promise<ScaleSimulator> {
  const state: ScaleState = { ...DEFAULT_STATE, ...initial };
  const commands: string[] = [];
  let stableAt: number | null = null;
  const sockets = new Set<Socket>();
  const socats = new Set<ChildProcess>();
  const dirs: string[] = [];

  const pullCable = (socket: Socket) => {
    state.pullCableOnRequest = false;
    socket.destroy();
    for (const socat of socats) socat.kill('SIGKILL');
  };

  const answer = (command: string, socket: Socket) => {
    commands.push(command);
    if (state.pullCableOnRequest) return pullCable(socket);
    if (state.silent) return;
    if (state.garbageFor > 0) {
      state.garbageFor -= 1;
      socket.write(GARBAGE);
      return;
    }
    const moving = state.movingFor > 0;
    if (moving && (command === 'SI' || command === 'W' || command === 'S')) state.movingFor -= 1;
    socket.write(protocol === 'mt_sics' ? sicsAnswer(command, state, moving) : nciAnswer(command, state, moving));
    if (!moving && !state.over && !state.under && (command === 'SI' || command === 'W' || command === 'S')) stableAt = Date.now();
  };

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = '';
    const terminator = protocol === 'mt_sics' ? '\r\n' : '\r';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      let at: number;
      while ((at = pending.indexOf(terminator)) >= 0) {
        const command = pending.slice(0, at);
        pending = pending.slice(at + terminator.length);
        answer(command, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the scale simulator has no TCP port');

  return {
    port: address.port,
    state,
    commands,
    lastStableAt: () => stableAt,
    set(change) {
      Object.assign(state, change);
    },
    async onPty() {
      const dir = mkdtempSync(join(tmpdir(), 'scale-pty-'));
      dirs.push(dir);
      const path = join(dir, 'ttyScale');
      // raw, no echo: a serial line, not a terminal; the pty's other side is this scale's TCP port.
      const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${path}`, `tcp:127.0.0.1:${address.port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      socats.add(socat);
      socat.on('exit', () => socats.delete(socat));
      let log = '';
      socat.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const started = Date.now();
      while (!(existsSync(path) && /starting data transfer loop/.test(log))) {
        if (socat.exitCode !== null || Date.now() - started > 5000) throw new Error(`socat did not make the pty: ${log}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { path, socat };
    },
    async close() {
      for (const socat of socats) socat.kill('SIGKILL');
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value right-aligned in 10 characters, its sign right before the digits (MT-SICS). */
const sicsValue = (state: ScaleState): string => state.weight.toFixed(state.decimals).padStart(10);

function sicsAnswer(command: string, state: ScaleState, moving: boolean): string {
  const line = (text: string) => `${text}\r\n`;
  switch (command) {
    case 'SI':
      if (state.over) return line('S +');
      if (state.under) return line('S -');
      return line(`S ${moving ? 'D' : 'S'} ${sicsValue(state)} ${state.unit}`);
    case 'S':
      if (state.over) return line('S +');
      if (state.under) return line('S -');
      // S waits for stability; a scale that does not settle in its own time answers S I.
      return line(moving ? 'S I' : `S S ${sicsValue(state)} ${state.unit}`);
    case '@':
      return line('I4 A "0123456789"');
    default:
      return line('ES');
  }
}

function nciStatus(state: ScaleState, moving: boolean): string {
  const byte1 = 0x30 | (moving ? 0b01 : 0) | (state.weight === 0 ? 0b10 : 0);
  const byte2 = 0x30 | (state.under ? 0b01 : 0) | (state.over ? 0b10 : 0);
  return String.fromCharCode(byte1, byte2);
}

function nciAnswer(command: string, state: ScaleState, moving: boolean): string {
  const status = `\n${nciStatus(state, moving)}\r\x03`;
  switch (command) {
    case 'W': {
      const display = state.over ? '^^^^^^^' : state.under ? '-------' : state.weight.toFixed(state.decimals).padStart(7, '0');
      return `\n${display}${state.unit.toUpperCase()}\r${status}`;
    }
    case 'S':
    case 'Z':
      return status;
    default:
      return '\n?\r\x03';
  }
}
