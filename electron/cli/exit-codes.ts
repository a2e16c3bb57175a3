/*
 * The command's exit codes, each once with what it means: the code sets them from here, and the
 * usage text (usage.ts) and docs/operator-guide.md say them from here (test/unit/cli-usage.test.ts).
 */

/** Every command's exit codes. */
export const EXIT = {
  ok: { code: 0, meaning: 'done' },
  refused: { code: 1, meaning: 'refused or failed (data directory in use, port taken, badge taken, …): the message says why' },
  usage: { code: 2, meaning: 'called wrongly: the usage follows the message' },
} as const;

/** `sync --once`'s exit codes: the most serious outcome wins. */
export const SYNC_EXIT = {
  ok: { code: EXIT.ok.code, meaning: 'everything pulled and sent' },
  refused: { code: EXIT.refused.code, meaning: 'refused: no upstream set, or the data directory is in use' },
  changesLeft: { code: 3, meaning: 'changes wait (parked by the upstream, gone upstream, backing off, or a lost create being looked for)' },
  pullIncomplete: { code: 4, meaning: 'the pull is incomplete (the rate budget left part for later) or failed (an unreadable answer)' },
  unreachable: { code: 5, meaning: 'the upstream cannot be reached' },
  paused: { code: 6, meaning: 'the upstream refused the token: sync pauses until `upstream set` again' },
} as const;
