import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The station core's layers are kept by lint (eslint.config.js, docs/decisions/store-interface.md).
 * Each case lints a line as if it stood in a file of that layer, so the rule is shown failing on a
 * forbidden import, not only passing on today's code.
 */
const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport { x };\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('the core layers', () => {
  it('domain never imports sync or api', async () => {
    expect(await problems('electron/station/domain/new-rule.ts', "import { x } from '../sync/sync-engine.ts';")).toEqual([
      expect.stringMatching(/domain never imports sync/),
    ]);
    expect(await problems('electron/station/domain/new-rule.ts', "import { x } from '../api/route.ts';")).toEqual([expect.stringMatching(/never import it/)]);
  });

  it('sync never imports api; it may use domain', async () => {
    expect(await problems('electron/station/sync/new-step.ts', "import { x } from '../api/view-cache.ts';")).toHaveLength(1);
    expect(await problems('electron/station/sync/new-step.ts', "import { x } from '../domain/change-log.ts';")).toEqual([]);
  });

  it('in sync, push and pull never import each other, links/ and lists/ neither, and upstream/ nothing else of sync', async () => {
    expect(await problems('electron/station/sync/push/new.ts', "import { x } from '../pull/pull.ts';")).toEqual([
      expect.stringMatching(/push never imports pull/),
    ]);
    expect(await problems('electron/station/sync/push/new.ts', "import { x } from '../lists/list-kinds.ts';")).toEqual([]);
    expect(await problems('electron/station/sync/pull/new.ts', "import { x } from '../push/push.ts';")).toEqual([
      expect.stringMatching(/pull never imports push/),
    ]);
    for (const file of ['electron/station/sync/links/new.ts', 'electron/station/sync/lists/new.ts']) {
      expect(await problems(file, "import { x } from '../pull/pull.ts';")).toEqual([expect.stringMatching(/import neither/)]);
      expect(await problems(file, "import { x } from '../upstream/answers.ts';")).toEqual([]);
    }
    expect(await problems('electron/station/sync/upstream/new.ts', "import { x } from '../sync-context.ts';")).toEqual([
      expect.stringMatching(/knows nothing else of sync/),
    ]);
    expect(await problems('electron/station/sync/upstream/new.ts', "import { x } from '../../store/index.ts';")).toEqual([]);
    // The store's and the API's rules hold in the folders too.
    expect(await problems('electron/station/sync/push/new.ts', "import { x } from 'dexie';")).toEqual([expect.stringMatching(/knows the engine/)]);
    expect(await problems('electron/station/sync/upstream/new.ts', "import { x } from '../../api/route.ts';")).toEqual([
      expect.stringMatching(/never import it/),
    ]);
  });

  it('api, domain and sync see the store only through store/index.ts, and never the engine', async () => {
    for (const file of ['electron/station/api/routes/new.ts', 'electron/station/domain/new.ts', 'electron/station/sync/new.ts']) {
      const up = file.startsWith('electron/station/api/routes/') ? '../../' : '../';
      expect(await problems(file, `import { x } from '${up}store/index.ts';`)).toEqual([]);
      expect(await problems(file, `import { x } from '${up}store/engine-reads.ts';`)).toEqual([expect.stringMatching(/store\/index\.ts/)]);
      expect(await problems(file, "import { x } from 'dexie';")).toEqual([expect.stringMatching(/knows the engine/)]);
    }
  });

  it("every file of electron/ outside store/ sees the store only through store/index.ts and never the engine: the station's top-level files, site/, the shell", async () => {
    const files: Array<[file: string, up: string]> = [
      ['electron/station/server.ts', './'],
      ['electron/station/data-dir-lock.ts', './'],
      ['electron/station/station.ts', './'],
      ['electron/station/site/hub.ts', '../'],
      ['electron/station/tls/new.ts', '../'],
      ['electron/main/index.ts', '../station/'],
    ];
    for (const [file, up] of files) {
      expect(await problems(file, `import { x } from '${up}store/index.ts';`)).toEqual([]);
      expect(await problems(file, `import { x } from '${up}store/schema.ts';`)).toEqual([expect.stringMatching(/store\/index\.ts/)]);
      for (const engine of ['dexie', 'node:sqlite', 'fake-indexeddb']) {
        expect(await problems(file, `import { x } from '${engine}';`)).toEqual([expect.stringMatching(/knows the engine/)]);
      }
    }
    // A folder named like the store elsewhere is not the store.
    expect(await problems('electron/station/server.ts', "import { x } from './api/store/thing.ts';")).toEqual([]);
    // The store itself knows its engine.
    expect(await problems('electron/station/store/sqlite/new.ts', "import { x } from 'node:sqlite';")).toEqual([]);
  });

  it("the command line and the station process's entry reach the station only through electron/station/index.ts", async () => {
    for (const file of ['electron/cli/upstream.ts', 'electron/core/index.ts']) {
      expect(await problems(file, "import { x } from '../station/index.ts';")).toEqual([]);
      for (const inside of ['../station/store/index.ts', '../station/sync/settings.ts', '../station/domain/tokens.ts', '../station/station.ts']) {
        expect(await problems(file, `import { x } from '${inside}';`)).toEqual([expect.stringMatching(/through its interface, electron\/station\/index\.ts/)]);
      }
      expect(await problems(file, "import { x } from 'dexie';")).toEqual([expect.stringMatching(/knows the engine/)]);
      expect(await problems(file, "import { x } from '#shared/api/client.ts';")).toEqual([]);
    }
  });

  it('site/ never imports api', async () => {
    expect(await problems('electron/station/site/new.ts', "import { x } from '../api/route.ts';")).toEqual([expect.stringMatching(/never import it/)]);
    expect(await problems('electron/station/site/new.ts', "import { x } from '../sync/settings.ts';")).toEqual([]);
  });

  it('store.db and store.inMemory are refused everywhere outside store/, in the files once allowed them too', async () => {
    const reads = 'const x = (ctx: { store: { db: unknown; inMemory: unknown } }) => [ctx.store.db, ctx.store.inMemory];';
    expect(await problems('electron/station/domain/new.ts', reads)).toHaveLength(2);
    expect(await problems('electron/station/sync/new.ts', 'const x = ({ db }: { db: unknown }) => db;')).toHaveLength(1);
    // Files that reached them until the store's interface covered their reads (the allow-list is gone).
    for (const file of [
      'electron/station/api/route.ts',
      'electron/station/domain/package-view-loader.ts',
      'electron/station/sync/pull/pull.ts',
      'electron/cli/upstream.ts',
    ]) {
      expect(await problems(file, reads)).toHaveLength(2);
    }
    // Its read-only tables are the interface: allowed.
    expect(await problems('electron/station/sync/pull/pull.ts', 'const x = (sc: { store: { tables: unknown } }) => sc.store.tables;')).toEqual([]);
    // The store itself works on its insides.
    expect(await problems('electron/station/store/new.ts', reads)).toEqual([]);
  });
});
