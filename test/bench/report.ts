import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** One line of the bench table. A row with a baseline shows its ratio to it. */
export interface BenchRow {
  section: string;
  name: string;
  rate?: number;
  p50_ms?: number;
  p99_ms?: number;
  /** A figure that is not a rate (open time, memory, keystrokes…), with its unit. */
  value?: string;
  /** Name of the row measured in the same run that this one is compared with. */
  baseline?: string;
  target?: string;
  ok?: boolean;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits }));

export function toMarkdown(rows: BenchRow[]): string {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const lines = ['| section | scenario | req/s | p50 ms | p99 ms | value | vs baseline | target | met |', '|---|---|---:|---:|---:|---:|---|---|---|'];
  for (const row of rows) {
    const base = row.baseline ? byName.get(row.baseline) : undefined;
    const ratio =
      base?.rate && row.rate !== undefined
        ? `${fmt((row.rate / base.rate) * 100, 1)}% of ${base.name}`
        : base?.p50_ms && row.p50_ms !== undefined
          ? `p50 ${fmt(row.p50_ms / base.p50_ms, 2)}× ${base.name}`
          : base?.value !== undefined
            ? `baseline: ${base.value}`
            : '';
    const met = row.ok === undefined ? '' : row.ok ? 'yes' : '**no**';
    lines.push(
      `| ${row.section} | ${row.name} | ${fmt(row.rate)} | ${fmt(row.p50_ms, 2)} | ${fmt(row.p99_ms, 2)} | ${row.value ?? ''} | ${ratio} | ${row.target ?? ''} | ${met} |`,
    );
  }
  return lines.join('\n');
}

/** Prepends this run to the committed results file, newest first, so progress is visible over time. */
export function recordRun(file: string, table: string, machine: string): void {
  const heading = `## ${new Date().toISOString()} — ${machine}\n\n${table}\n\n`;
  const title = '# Benchmark results\n\nWritten by `npm run bench`; newest run first.\n\n';
  const previous = existsSync(file) ? readFileSync(file, 'utf8').replace(title, '') : '';
  writeFileSync(file, title + heading + previous);
}
