/**
 * @module The up-to-date proof, the stage before any other: the outputs were generated from exactly these inputs
 * (the API module and every file it loaded, the lock, restgen and its templates, the formatter settings), and no
 * output was touched since. It is the inputs record (`restgen-inputs.json`, committed with the outputs, so a fresh
 * clone has it), checked by content; the run record of the cache folder is the same proof with every file's stamp,
 * so that a run on the same machine stats the files instead of reading them. When the proof holds, nothing is
 * loaded, rendered or written.
 */
import { partsText } from '../emit/parts.ts';
import { keepHeldRecord, recordHolds } from './inputs-record.ts';
import { runKey, upToDate, type SavedRecord } from './run-cache.ts';
import type { Run } from './run.ts';
import { sessionRecord, sessionRestgenStamp } from './session.ts';

/** What the proof found: the outputs when it holds, else what later stages reuse of the last run. */
export type Proof =
  | { readonly holds: true; readonly files: readonly string[] }
  | {
      readonly holds: false;
      /** The last complete run's record on this machine, if any. */
      readonly saved: SavedRecord | undefined;
      /** restgen and the template overrides, by their stamps: the cache's key. */
      readonly key: string;
    };

/** Whether the outputs of `run` are provably up to date (see the module comment). */
export async function proveUpToDate(run: Run): Promise<Proof> {
  const { options, apiPath, outDir, lockPath, parts, settingsOf } = run;
  const { session, templatesDir } = options;
  const saved = sessionRecord(session, apiPath, outDir, templatesDir);
  // restgen itself and the template overrides, by their stamps (a session stamps restgen's own files once).
  const key = runKey(templatesDir, session && sessionRestgenStamp(session));
  // A record of a run for other parts never answers "up to date".
  const known = saved?.record.parts === partsText(parts) && (await upToDate(saved, apiPath, outDir, templatesDir, settingsOf, key));
  if (known) return { holds: true, files: known };
  // No run record (a fresh clone, CI after `npm ci`) or another checkout: the committed inputs record, by content.
  const held = await recordHolds(outDir, apiPath, lockPath, templatesDir, parts, settingsOf);
  if (held) {
    keepHeldRecord(apiPath, outDir, templatesDir, held);
    return { holds: true, files: held.files };
  }
  return { holds: false, saved, key: key.key };
}
