import fs from 'node:fs/promises';
import path from 'node:path';
import { DocqaError } from '@docqa/plugin-api';
import { hasParentSegment } from './config.js';

/*
 * The security border of this connector. Every check works on real paths (fs.realpath: symlinks
 * resolved), because a name can lie: `/app/docs/shared` may be a link to `/etc`. A source's root
 * is checked once when it is opened; every directory and file below it is checked again right
 * before it is read, so a directory swapped for a link during a sync is not followed either.
 */

/** True when `candidate` is `parent` or lies below it; both must be real, absolute paths. */
export function isInside(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Resolves a source's configured path to its real path, refusing it unless it is an existing
 * directory inside one of the allowed roots (compared on real paths too, so an allowed root that is
 * itself a link still works). Allowed roots that do not exist are ignored.
 */
export async function resolveSourceRoot(configuredPath: string, allowedPaths: readonly string[]): Promise<string> {
  const refuse = (reason: string, cause?: unknown) =>
    new DocqaError(
      'validation_failed',
      `Directory '${configuredPath}' ${reason}; allowed directories ` +
        `(CONNECTOR_ALLOWED_PATHS): ${allowedPaths.join(', ')}`,
      { cause, errors: [{ field: 'path', message: reason }], extra: { allowedPaths: [...allowedPaths] } },
    );

  // Checked on the text before touching the disk: `..` is refused even when it would resolve inside.
  if (!path.isAbsolute(configuredPath)) throw refuse('is not an absolute path');
  if (hasParentSegment(configuredPath)) throw refuse('contains ".." segments');

  let realRoot: string;
  try {
    realRoot = await fs.realpath(configuredPath);
  } catch (error) {
    throw refuse('does not exist or cannot be read', error);
  }
  const allowedRealRoots = await realPathsOf(allowedPaths);
  if (!allowedRealRoots.some((allowed) => isInside(allowed, realRoot))) {
    const resolvedNote = realRoot === path.resolve(configuredPath) ? '' : ` (it resolves to '${realRoot}')`;
    throw refuse(`is outside the allowed directories${resolvedNote}`);
  }
  const stats = await fs.stat(realRoot);
  if (!stats.isDirectory()) throw refuse('is not a directory');
  return realRoot;
}

async function realPathsOf(paths: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(paths.map((candidate) => fs.realpath(candidate).catch(() => null)));
  return resolved.filter((candidate): candidate is string => candidate !== null);
}

/** The absolute path of a relative POSIX path below the root (no checks: see realPathInsideRoot). */
export function absolutePathOf(root: string, relativePath: string): string {
  return relativePath === '' ? root : path.join(root, ...relativePath.split('/'));
}

/**
 * The real path of an entry below the root, or null when it vanished or resolves outside the root
 * (some component was replaced by a link since it was listed). Callers skip the entry on null.
 */
export async function realPathInsideRoot(root: string, relativePath: string): Promise<string | null> {
  const expected = absolutePathOf(root, relativePath);
  let real: string;
  try {
    real = await fs.realpath(expected);
  } catch {
    return null;
  }
  // Inside the root is not enough: the entry itself must not be a link to somewhere else inside it,
  // or a file could be read twice under two names, one of them excluded by a glob.
  return real === expected && isInside(root, real) ? real : null;
}
