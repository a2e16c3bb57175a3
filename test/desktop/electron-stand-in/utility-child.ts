import { EventEmitter } from 'node:events';

/*
 * Loaded with `node --import` into the child the stand-in's `utilityProcess.fork` starts: gives it
 * the `process.parentPort` an Electron utility process has (electron/core/index.ts uses only that),
 * over Node's IPC channel. As in Electron: a listener gets a MessageEvent (`{ data, ports }`),
 * messages wait until one listens, and the process ends when its parent is gone.
 */
class StandInParentPort extends EventEmitter {
  private readonly waiting: unknown[] = [];
  constructor() {
    super();
    this.on('newListener', (name: string) => {
      if (name !== 'message') return;
      // Delivered once the listener is in place (EventEmitter adds it after this event).
      queueMicrotask(() => {
        for (const data of this.waiting.splice(0)) this.emit('message', { data, ports: [] });
      });
    });
    process.on('message', (data: unknown) => {
      if (this.listenerCount('message') === 0) this.waiting.push(data);
      else this.emit('message', { data, ports: [] });
    });
  }
  postMessage(message: unknown): void {
    process.send?.(message);
  }
}

Object.defineProperty(process, 'parentPort', { value: new StandInParentPort(), enumerable: true });
// Chromium ends a child process whose browser process is gone; so does this one.
process.on('disconnect', () => process.exit(0));
