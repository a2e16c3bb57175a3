/*
 * A stand-in for the `electron` module, for loading the BUILT main bundle (`out/main/index.js`) under
 * Node where no Electron binary can run. It records what the shell asks of Electron and lets the
 * test (the parent process, over Node IPC) call the handlers the shell installed.
 * `utilityProcess.fork` starts a real child with `child_process.fork` (utility-child.ts gives it
 * Electron's `process.parentPort`), so the core runs in its own process as it does in Electron.
 * Behaviour is set by environment: STAND_IN_PACKAGED=1, STAND_IN_SECOND_INSTANCE=1.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';

type Listener = (...args: unknown[]) => unknown;

interface Recorded {
  windows: Array<{ options: Record<string, unknown>; loadedUrl: string | null; loads?: number; title: string | null; shown: boolean }>;
  menu: unknown;
  menuSet: boolean;
  partitions: string[];
  defaultSessionTouched: boolean;
  ipcChannels: string[];
  errorBoxes: Array<{ title: string; content: string }>;
  /** `dialog.showMessageBox` (non-blocking notices), in order. */
  messageBoxes: Array<{ type?: string; title?: string; message: string; detail?: string }>;
  calls: string[];
  utilityProcesses: RecordedUtilityProcess[];
}

interface RecordedUtilityProcess {
  modulePath: string;
  args: string[];
  /** As the shell gave them (Electron's form: `--js-flags=…`). */
  execArgv: string[];
  /** What node got instead: the V8 flags of `--js-flags` one by one, as Electron hands them to V8. */
  nodeExecArgv: string[];
  serviceName: string | undefined;
  pid: number | undefined;
  exitCode: number | null;
}

const record: Recorded = {
  windows: [],
  menu: undefined,
  menuSet: false,
  partitions: [],
  defaultSessionTouched: false,
  ipcChannels: [],
  errorBoxes: [],
  messageBoxes: [],
  calls: [],
  utilityProcesses: [],
};
const appListeners = new Map<string, Listener[]>();
const ipcListeners = new Map<string, Listener>();
let requestHandler: Listener | undefined;
let checkHandler: Listener | undefined;
let verifyProc: Listener | undefined;
let devicePermissionHandler: Listener | undefined;
const sessionListeners = new Map<string, Listener>();
const windowInstances: FakeBrowserWindow[] = [];

function send(message: unknown): void {
  process.send?.(message);
}

function emitApp(name: string, ...args: unknown[]): void {
  for (const fn of appListeners.get(name) ?? []) fn(...args);
}

function toPlain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'function' ? '[function]' : v)));
}

export const app = {
  isPackaged: process.env.STAND_IN_PACKAGED === '1',
  setPath(name: string, path: string) {
    record.calls.push(`app.setPath ${name} ${path}`);
  },
  getAppPath: () => process.cwd(),
  requestSingleInstanceLock: () => process.env.STAND_IN_SECOND_INSTANCE !== '1',
  whenReady: () => Promise.resolve(),
  on(name: string, fn: Listener) {
    appListeners.set(name, [...(appListeners.get(name) ?? []), fn]);
    return app;
  },
  quit() {
    record.calls.push('app.quit');
    let prevented = false;
    emitApp('before-quit', { preventDefault: () => (prevented = true) });
    record.calls.push(prevented ? 'before-quit prevented' : 'before-quit passed');
    if (!prevented) {
      send({ type: 'exiting', code: 0, record: toPlain(record) });
      setTimeout(() => process.exit(0), 50);
    }
  },
  exit(code = 0) {
    record.calls.push(`app.exit ${code}`);
    send({ type: 'exiting', code, record: toPlain(record) });
    setTimeout(() => process.exit(code), 50);
  },
};

class FakeWebContents {
  static next = 1;
  readonly id = FakeWebContents.next++;
  readonly listeners = new Map<string, Listener>();
  openHandler: Listener | undefined;
  setWindowOpenHandler(fn: Listener) {
    this.openHandler = fn;
  }
  on(name: string, fn: Listener) {
    this.listeners.set(name, fn);
  }
}

export class BrowserWindow {
  readonly webContents = new FakeWebContents();
  readonly entry: Recorded['windows'][number];
  readonly listeners = new Map<string, Listener>();
  constructor(options: Record<string, unknown>) {
    const prefs = { ...(options.webPreferences as Record<string, unknown>) };
    if (prefs.session) prefs.session = (prefs.session as FakeSession).partition;
    this.entry = { options: { ...options, webPreferences: prefs }, loadedUrl: null, title: null, shown: false };
    record.windows.push(this.entry);
    windowInstances.push(this as unknown as FakeBrowserWindow);
  }
  once(name: string, fn: Listener) {
    this.listeners.set(name, fn);
  }
  on(name: string, fn: Listener) {
    this.listeners.set(name, fn);
  }
  async loadURL(url: string) {
    this.entry.loadedUrl = url;
    this.entry.loads = (this.entry.loads ?? 0) + 1;
    this.listeners.get('ready-to-show')?.();
    send({ type: 'loaded', url });
  }
  show() {
    this.entry.shown = true;
  }
  focus() {
    record.calls.push('window.focus');
  }
  restore() {}
  isMinimized() {
    return false;
  }
  setTitle(title: string) {
    this.entry.title = title;
  }
}
type FakeBrowserWindow = BrowserWindow;

class FakeSession {
  readonly partition: string;
  constructor(partition: string) {
    this.partition = partition;
  }
  setPermissionRequestHandler(fn: Listener) {
    if (this.partition === 'default') record.defaultSessionTouched = true;
    requestHandler = fn;
  }
  setPermissionCheckHandler(fn: Listener) {
    if (this.partition === 'default') record.defaultSessionTouched = true;
    checkHandler = fn;
  }
  setCertificateVerifyProc(fn: Listener) {
    if (this.partition === 'default') record.defaultSessionTouched = true;
    verifyProc = fn;
  }
  setDevicePermissionHandler(fn: Listener) {
    if (this.partition === 'default') record.defaultSessionTouched = true;
    devicePermissionHandler = fn;
  }
  on(name: string, fn: Listener) {
    if (this.partition === 'default') record.defaultSessionTouched = true;
    sessionListeners.set(name, fn);
    return this;
  }
}

export const session = {
  defaultSession: new FakeSession('default'),
  fromPartition(partition: string) {
    record.partitions.push(partition);
    return new FakeSession(partition);
  },
};

export const ipcMain = {
  on(channel: string, fn: Listener) {
    record.ipcChannels.push(channel);
    ipcListeners.set(channel, fn);
  },
};

export const Menu = {
  buildFromTemplate: (template: unknown) => ({ template }),
  setApplicationMenu(menu: { template: unknown } | null) {
    record.menuSet = true;
    record.menu = menu === null ? null : toPlain(menu.template);
  },
};

export const dialog = {
  showErrorBox(title: string, content: string) {
    record.errorBoxes.push({ title, content });
  },
  async showMessageBox(_window: unknown, options: { type?: string; title?: string; message: string; detail?: string }) {
    record.messageBoxes.push({ type: options.type, title: options.title, message: options.message, detail: options.detail });
    return { response: 0, checkboxChecked: false };
  },
};

export const shell = {
  openPath: async (path: string) => {
    record.calls.push(`shell.openPath ${path}`);
    return '';
  },
  openExternal: async (url: string) => {
    record.calls.push(`shell.openExternal ${url}`);
  },
};

const UTILITY_CHILD = new URL('./utility-child.ts', import.meta.url).pathname;

/** Electron's `--js-flags=…` become node's own V8 flags (node takes them on its command line). */
function nodeExecArgvOf(execArgv: readonly string[]): string[] {
  return execArgv.flatMap((argument) => (argument.startsWith('--js-flags=') ? argument.slice('--js-flags='.length).split(/\s+/).filter(Boolean) : [argument]));
}

/** Electron's UtilityProcess over a node child: `message`, `spawn`, `exit` (with a code, a signal's number for a killed one), postMessage, kill, pid. */
class StandInUtilityProcess extends EventEmitter {
  readonly child: ChildProcess;
  readonly entry: RecordedUtilityProcess;
  private killed = false;
  constructor(
    modulePath: string,
    args: string[],
    options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; stdio?: unknown; serviceName?: string; cwd?: string },
  ) {
    super();
    const nodeExecArgv = nodeExecArgvOf(options.execArgv ?? []);
    this.child = fork(modulePath, args, {
      execArgv: [...nodeExecArgv, '--import', UTILITY_CHILD],
      env: options.env ?? process.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      // Electron's default and the shell's choice: the child writes where this process does.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.entry = { modulePath, args, execArgv: options.execArgv ?? [], nodeExecArgv, serviceName: options.serviceName, pid: this.child.pid, exitCode: null };
    record.utilityProcesses.push(this.entry);
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('message', (message: unknown) => this.emit('message', message));
    this.child.on('exit', (code, signal) => {
      // As Electron: a process ended by kill() exited 0; one killed from outside, the signal's number.
      const exitCode = this.killed ? 0 : (code ?? (signal ? constants.signals[signal] : 1));
      this.entry.exitCode = exitCode;
      this.emit('exit', exitCode);
    });
  }
  get pid(): number | undefined {
    return this.entry.exitCode === null ? this.child.pid : undefined;
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as never);
  }
  kill(): boolean {
    if (this.entry.exitCode !== null) return false;
    this.killed = true;
    return this.child.kill('SIGTERM');
  }
}

export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: ConstructorParameters<typeof StandInUtilityProcess>[2] = {}) {
    record.calls.push(`utilityProcess.fork ${modulePath}`);
    return new StandInUtilityProcess(modulePath, args, options);
  },
};

export default { app, BrowserWindow, session, ipcMain, Menu, dialog, shell, utilityProcess };

// -- the test's side: commands over Node IPC -------------------------------------------------

type Command =
  | { type: 'record' }
  | { type: 'permission'; permission: string; requestingUrl: string; mediaTypes?: string[] }
  | { type: 'verify-certificate'; hostname: string; pem: string }
  | { type: 'permission-check'; permission: string; requestingOrigin: string }
  | { type: 'device-permission'; deviceType: string; origin: string }
  | { type: 'select-hid-device'; frameUrl: string; deviceIds: string[] }
  | { type: 'connection'; frameUrl: string; isMainFrame: boolean; ownWebContents: boolean }
  | { type: 'navigate'; event: 'will-navigate' | 'will-redirect'; url: string }
  | { type: 'open-window'; url: string }
  | { type: 'close-window' }
  | { type: 'second-instance' }
  | { type: 'menu-click'; label: string }
  | { type: 'quit' };

function findMenuItem(items: unknown, label: string): { click?: Listener } | undefined {
  for (const item of (items as Array<{ label?: string; submenu?: unknown; click?: Listener }>) ?? []) {
    if (item.label === label) return item;
    const inner = item.submenu ? findMenuItem(item.submenu, label) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
let lastTemplate: unknown;
const buildFromTemplate = Menu.buildFromTemplate;
Menu.buildFromTemplate = (template: unknown) => {
  lastTemplate = template;
  return buildFromTemplate(template);
};

process.on('message', (raw: unknown) => {
  const command = raw as Command & { id: number };
  const reply = (value: unknown) => send({ type: 'reply', id: command.id, value: toPlain(value) ?? null });
  const window = windowInstances[0];
  switch (command.type) {
    case 'record':
      return reply(record);
    case 'permission': {
      let answer: unknown = 'no answer';
      requestHandler?.(window?.webContents, command.permission, (granted: boolean) => (answer = granted), {
        requestingUrl: command.requestingUrl,
        mediaTypes: command.mediaTypes,
      });
      return reply(answer);
    }
    case 'verify-certificate': {
      let answer: unknown = 'no answer';
      verifyProc?.(
        { hostname: command.hostname, certificate: { data: command.pem }, verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID', errorCode: -202 },
        (code: number) => (answer = code),
      );
      return reply(verifyProc ? answer : 'no verify proc');
    }
    case 'permission-check':
      return reply(checkHandler?.(window?.webContents, command.permission, command.requestingOrigin, {}) ?? 'no handler');
    case 'device-permission':
      return reply(devicePermissionHandler?.({ deviceType: command.deviceType, origin: command.origin }) ?? 'no handler');
    case 'select-hid-device': {
      const select = sessionListeners.get('select-hid-device');
      if (!select) return reply('no handler');
      let chosen: unknown = 'no answer';
      let prevented = false;
      select(
        { preventDefault: () => (prevented = true) },
        { frame: { url: command.frameUrl }, deviceList: command.deviceIds.map((deviceId) => ({ deviceId })) },
        (deviceId?: string) => (chosen = deviceId ?? 'none'),
      );
      return reply({ prevented, chosen });
    }
    case 'connection': {
      const frame = { url: command.frameUrl, parent: command.isMainFrame ? null : {} };
      const event = { senderFrame: frame, sender: { id: command.ownWebContents ? window?.webContents.id : 999 }, returnValue: undefined as unknown };
      ipcListeners.get('station:connection')?.(event);
      return reply(event.returnValue);
    }
    case 'navigate': {
      let prevented = false;
      window?.webContents.listeners.get(command.event)?.({ preventDefault: () => (prevented = true) }, command.url);
      return reply(prevented);
    }
    case 'open-window':
      return reply(window?.webContents.openHandler?.({ url: command.url }));
    case 'close-window': {
      let prevented = false;
      window?.listeners.get('close')?.({ preventDefault: () => (prevented = true) });
      return reply(prevented);
    }
    case 'second-instance':
      emitApp('second-instance', {}, ['returns-station']);
      return reply(record.calls.includes('window.focus'));
    case 'menu-click':
      findMenuItem(lastTemplate, command.label)?.click?.();
      return reply(record.calls.slice(-1)[0] ?? null);
    case 'quit':
      app.quit();
      return reply(record.calls.slice(-1)[0] ?? null);
  }
});
send({ type: 'stand-in-ready' });
