import crypto from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DocqaError, type ConnectorStorage, type StoredConnectorFile } from '@docqa/plugin-api';
import { absolutePathOf, realPathInsideRoot, resolveSourceRoot } from './allowed-root.js';
import type { DirectorySourceConfig } from './config.js';
import { pathFilters, writeInProgress, type PathFilters } from './walk.js';

/*
 * The directory as storage: uploads with a connector_id, moves and deletes of its documents.
 * The same border as a sync, on every call: the source root is resolved again (it may have been
 * replaced by a link since the connector was created), a path may not leave it, may not pass
 * through a link (a sync never follows one, so a file behind a link would never be announced), and
 * may not name a file the source's globs exclude (a sync would never announce it either).
 *
 * Nothing is ever replaced: a write or a move onto an existing file is a conflict. A user who
 * uploads `report.pdf` twice into a directory most likely does not want the first one gone, and
 * a replace is a delete plus a write, which the API can already express.
 */

export interface DirectoryStorageSettings {
  /** The source's configured path, resolved (and checked) again on every call. */
  configuredPath: string;
  allowedPaths: readonly string[];
  config: DirectorySourceConfig;
  maxFileBytes: number | undefined;
}

/** A relative path as the API sends it, checked on its text before anything touches the disk. */
export function checkRelativePath(value: string, field: string): string {
  const refuse = (reason: string) =>
    new DocqaError('validation_failed', `Path '${value}' ${reason}.`, { errors: [{ field, message: reason }] });
  if (typeof value !== 'string' || value.length === 0) throw refuse('is empty');
  if (value.length > 4096) throw refuse('is longer than 4096 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw refuse('contains control characters');
  if (value.includes('\\')) throw refuse('contains "\\"; separate directories with "/"');
  if (value.startsWith('/') || path.isAbsolute(value))
    throw refuse("must be relative to the connector's directory, not absolute");
  const segments = value.split('/');
  if (segments.includes('..')) throw refuse('must not contain ".." segments');
  if (segments.some((segment) => segment === '' || segment === '.'))
    throw refuse('must not contain empty or "." segments');
  if (segments.some((segment) => Buffer.byteLength(segment) > 255)) throw refuse('has a name longer than 255 bytes');
  if (writeInProgress.test(segments.at(-1)!)) throw refuse('names a temporary file of DocQA');
  return value;
}

export function directoryStorage(settings: DirectoryStorageSettings): ConnectorStorage {
  const filters = pathFilters(settings.config.include, settings.config.exclude);
  const root = () => resolveSourceRoot(settings.configuredPath, settings.allowedPaths);

  /**
   * Checks the path a new file is to take: its text, the globs, every directory on the way, and
   * that nothing is there yet; with `create`, makes the missing directories. Answers the real path
   * of its directory ('' when that does not exist yet and `create` is false) and the target's path.
   */
  async function prepareTarget(
    sourceRoot: string,
    relativePath: string,
    field: string,
    create: boolean,
  ): Promise<{ directory: string; target: string }> {
    checkRelativePath(relativePath, field);
    refuseExcluded(filters, relativePath, field);
    const segments = relativePath.split('/');
    const directory = await realDirectory(sourceRoot, segments.slice(0, -1), field, create);
    const target = path.join(
      directory ?? absolutePathOf(sourceRoot, segments.slice(0, -1).join('/')),
      segments.at(-1)!,
    );
    if (directory !== null && (await lstatOrNull(target)) !== null) {
      throw new DocqaError(
        'conflict',
        `'${relativePath}' already exists in the connector's directory; delete it first or choose another path.`,
        { errors: [{ field, message: 'already exists' }] },
      );
    }
    return { directory: directory ?? '', target };
  }

  return {
    async checkWritable(relativePath) {
      await prepareTarget(await root(), relativePath, 'path', false);
    },

    async write(relativePath, content, options = {}) {
      const sourceRoot = await root();
      const { directory, target } = await prepareTarget(sourceRoot, relativePath, 'path', true);
      const temporary = path.join(directory, `.docqa-write-${crypto.randomUUID()}.tmp`);
      // O_EXCL and O_NOFOLLOW: never write through a link planted at the temporary name.
      const handle = await fs
        .open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644)
        .catch((error: unknown) => {
          throw ioError(`Cannot create '${relativePath}'`, error);
        });
      try {
        let size = 0;
        try {
          for await (const chunk of content) {
            options.signal?.throwIfAborted();
            size += chunk.byteLength;
            if (settings.maxFileBytes !== undefined && size > settings.maxFileBytes) {
              throw new DocqaError(
                'file_too_large',
                `'${relativePath}' is larger than the ${settings.maxFileBytes} ` +
                  'bytes this connector takes (maxFileBytes).',
                { extra: { limit: settings.maxFileBytes } },
              );
            }
            for (let offset = 0; offset < chunk.byteLength;) offset += (await handle.write(chunk, offset)).bytesWritten;
          }
          options.signal?.throwIfAborted();
          await handle.sync();
        } finally {
          await handle.close();
        }
        await placeWithoutReplacing(temporary, target, relativePath, 'path');
      } finally {
        await fs.rm(temporary, { force: true });
      }
      return storedFile(relativePath, await fs.lstat(target));
    },

    async move(from, to) {
      const sourceRoot = await root();
      checkRelativePath(from, 'from');
      const source = await realPathInsideRoot(sourceRoot, from);
      if (source === null || !(await lstatOrNull(source))?.isFile()) {
        throw new DocqaError('not_found', `'${from}' is not a file in the connector's directory (any more).`, {
          errors: [{ field: 'from', message: 'is not a file' }],
        });
      }
      if (from === to) return storedFile(to, await fs.lstat(source));
      const { target } = await prepareTarget(sourceRoot, to, 'to', true);
      await placeWithoutReplacing(source, target, to, 'to');
      await fs.rm(source, { force: true });
      return storedFile(to, await fs.lstat(target));
    },

    async delete(relativePath) {
      const sourceRoot = await root();
      checkRelativePath(relativePath, 'path');
      // Null for a path that is gone, or that leads through a link: nothing of ours to delete there.
      const real = await realPathInsideRoot(sourceRoot, relativePath);
      if (real === null || !(await lstatOrNull(real))?.isFile()) return false;
      try {
        await fs.unlink(real);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw ioError(`Cannot delete '${relativePath}'`, error);
      }
      return true;
    },
  };
}

function storedFile(relativePath: string, stats: Stats): StoredConnectorFile {
  return { externalId: relativePath, path: relativePath, size: stats.size, modifiedAt: stats.mtime };
}

/** A sync would not announce a file the globs exclude, nor one in an excluded directory. */
function refuseExcluded(filters: PathFilters, relativePath: string, field: string): void {
  const segments = relativePath.split('/');
  const excludedDirectory = segments
    .slice(0, -1)
    .some((_, index) => filters.excludesDirectory(segments.slice(0, index + 1).join('/')));
  if (excludedDirectory || !filters.includesFile(relativePath)) {
    throw new DocqaError(
      'validation_failed',
      `'${relativePath}' is excluded by this connector's include and exclude globs, so its scans would never see it.`,
      { errors: [{ field, message: "is excluded by the connector's globs" }] },
    );
  }
}

/**
 * The real path of a directory below the root, checking (and with `create`, creating) each level:
 * every existing level must be a real directory, not a link, not a file. Without `create`, null
 * when some level does not exist yet (then nothing can exist at the target either).
 */
async function realDirectory(root: string, segments: string[], field: string, create: boolean): Promise<string | null> {
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment);
    let stats = await lstatOrNull(current);
    if (stats === null) {
      if (!create) return null;
      try {
        await fs.mkdir(current, { mode: 0o755 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
          throw ioError(`Cannot create directory '${segments.slice(0, index + 1).join('/')}'`, error);
      }
      stats = await lstatOrNull(current);
    }
    if (stats === null || stats.isSymbolicLink() || !stats.isDirectory()) {
      const what = stats?.isSymbolicLink() ? 'is a symbolic link (links are never followed)' : 'is not a directory';
      throw new DocqaError('validation_failed', `'${segments.slice(0, index + 1).join('/')}' ${what}.`, {
        errors: [{ field, message: `passes through a path that ${what}` }],
      });
    }
  }
  // Checked once more on the real path: a level swapped for a link between the checks above and now.
  const relative = segments.join('/');
  const real = relative === '' ? root : await realPathInsideRoot(root, relative);
  if (real === null)
    throw new DocqaError(
      'validation_failed',
      `'${relative}' now resolves outside its place in the connector's directory.`,
      { errors: [{ field, message: "leads outside the connector's directory" }] },
    );
  return real;
}

/**
 * Gives `existing` the name `target` unless something is there: link() fails on an existing name,
 * atomically, where rename() would replace it. Filesystems without hard links (some network and
 * FUSE mounts) get a check then a rename, which only a concurrent writer of the same name can race.
 */
async function placeWithoutReplacing(
  existing: string,
  target: string,
  relativePath: string,
  field: string,
): Promise<void> {
  const conflict = () =>
    new DocqaError(
      'conflict',
      `'${relativePath}' already exists in the connector's directory; delete it first or choose another path.`,
      { errors: [{ field, message: 'already exists' }] },
    );
  try {
    await fs.link(existing, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw conflict();
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK'].includes(code))
      throw ioError(`Cannot create '${relativePath}'`, error);
  }
  if ((await lstatOrNull(target)) !== null) throw conflict();
  try {
    await fs.rename(existing, target);
  } catch (error) {
    throw ioError(`Cannot create '${relativePath}'`, error);
  }
}

async function lstatOrNull(file: string): Promise<Stats | null> {
  try {
    return await fs.lstat(file);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

function ioError(what: string, error: unknown): DocqaError {
  return new DocqaError('unavailable', `${what} in the connector's directory: ${(error as Error).message}`, {
    cause: error,
  });
}
