import { readFileSync } from 'node:fs';

const MiB = 2 ** 20;
/** V8 maps its regular heap pages one by one, 256 KiB each. */
const V8_PAGE = 256 * 1024;

/** Resident memory by kind of mapping (MiB), from /proc/<pid>/smaps (Linux only). */
export interface ResidentByMapping {
  /** The main thread's malloc heap ([heap], grown with brk). */
  brk: number;
  /** Anonymous mappings of exactly one V8 page: V8's heap pages, in use or pooled. */
  v8Pages: number;
  /** Every other anonymous mapping: other threads' malloc arenas, malloc's large chunks (mmap), V8's large objects and code. */
  otherAnon: number;
  /** File-backed mappings: the node binary and its libraries. */
  file: number;
}

export function residentByMapping(pid: number | 'self' = 'self'): ResidentByMapping {
  const out: ResidentByMapping = { brk: 0, v8Pages: 0, otherAnon: 0, file: 0 };
  let kind: keyof ResidentByMapping = 'otherAnon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[3] ?? '';
      const size = Number.parseInt(head[2] ?? '0', 16) - Number.parseInt(head[1] ?? '0', 16);
      kind = name === '[heap]' ? 'brk' : name.startsWith('/') ? 'file' : name === '' && size === V8_PAGE ? 'v8Pages' : 'otherAnon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += (Number(rss[1]) * 1024) / MiB;
  }
  return out;
}
