import fs from 'node:fs';
import git from 'isomorphic-git';

export type FileChange = { kind: 'upsert'; path: string; oid: string } | { kind: 'delete'; path: string };

/** Regular files only: symlinks (0o120000) and submodules (0o160000) have no document bytes. */
function isRegularFile(mode: number): boolean {
  return (mode & 0o170000) === 0o100000;
}

/**
 * What changed between two commits' trees (`from` null: everything in `to`), as upserts of added or
 * modified files and deletes of removed ones. A rename is a delete of the old path and an upsert of
 * the new one: the path is the document's id. Subtrees with the same oid are skipped unread, so a
 * diff costs what changed, not the size of the repository.
 */
export async function diffTrees(
  dir: string,
  from: string | null,
  to: string,
  wanted: (path: string) => boolean,
  signal: AbortSignal,
): Promise<FileChange[]> {
  const trees = from === null ? [git.TREE({ ref: to })] : [git.TREE({ ref: from }), git.TREE({ ref: to })];
  const changes = (await git.walk({
    fs,
    dir,
    trees,
    map: async (filepath, entries) => {
      signal.throwIfAborted();
      const [before, after] = from === null ? [null, entries[0] ?? null] : [entries[0] ?? null, entries[1] ?? null];
      const [beforeType, afterType] = [await before?.type(), await after?.type()];
      if (beforeType === 'tree' && afterType === 'tree' && (await before!.oid()) === (await after!.oid())) return null;
      if (filepath === '.') return undefined;
      const beforeFile = beforeType === 'blob' && isRegularFile(await before!.mode()) && wanted(filepath);
      const afterFile = afterType === 'blob' && isRegularFile(await after!.mode()) && wanted(filepath);
      if (afterFile) {
        const oid = await after!.oid();
        if (beforeFile && (await before!.oid()) === oid) return undefined;
        return { kind: 'upsert', path: filepath, oid } satisfies FileChange;
      }
      if (beforeFile) return { kind: 'delete', path: filepath } satisfies FileChange;
      return undefined;
    },
  })) as FileChange[];
  // Deletes first: a path that turned from a file into a directory is removed before its new files arrive.
  return changes.sort((a, b) => (a.kind === b.kind ? a.path.localeCompare(b.path) : a.kind === 'delete' ? -1 : 1));
}
