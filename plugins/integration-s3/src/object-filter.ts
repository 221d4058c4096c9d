import { defaultIncludedSuffixes, type S3SourceConfig } from './config.js';

/*
 * Which listed objects become documents, and under which path.
 *
 * `include` entries are either suffixes or globs. An entry with a glob character (* ? {) is a glob,
 * anything else a suffix. Suffixes are compared case-insensitively (`.pdf` matches `Scan.PDF`),
 * because extensions are written both ways; globs are case-sensitive, like S3 keys themselves.
 * A glob is matched against the path relative to the prefix; a glob without a "/" is matched against
 * the last path segment only (`*.md` matches `notes/a.md`), as in .gitignore.
 */

export interface ObjectFilter {
  /** The document path of `key`, or null when the object is not to be indexed. */
  pathOf(key: string, size: number): string | null;
}

export function objectFilter(config: Pick<S3SourceConfig, 'prefix' | 'include' | 'max_object_bytes'>): ObjectFilter {
  const prefix = config.prefix ?? '';
  const matchers = (config.include ?? defaultIncludedSuffixes).map(includeMatcher);
  return {
    pathOf(key, size) {
      // The listing already asks for the prefix; checked again because some stores ignore it.
      if (!key.startsWith(prefix)) return null;
      // "Folders" made in consoles are zero-byte objects whose key ends in "/": not documents.
      if (key.endsWith('/')) return null;
      if (size > config.max_object_bytes) return null;
      const path = relativePath(key, prefix);
      return matchers.some((matches) => matches(path)) ? path : null;
    },
  };
}

/** The key relative to the prefix, without a leading "/" (prefix `docs` and key `docs/a.md` give `a.md`). */
export function relativePath(key: string, prefix: string): string {
  const relative = key.slice(prefix.length).replace(/^\/+/, '');
  // A key equal to the prefix (or to the prefix plus slashes) has nothing left: its own key is the best name.
  return relative === '' ? key : relative;
}

function includeMatcher(entry: string): (path: string) => boolean {
  if (!/[*?{]/.test(entry)) {
    const suffix = entry.toLowerCase();
    return (path) => path.toLowerCase().endsWith(suffix);
  }
  const pattern = globToRegExp(entry);
  if (entry.includes('/')) return (path) => pattern.test(path);
  return (path) => pattern.test(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * `**` any run of characters including "/" (`**\/` also matches nothing, so `a/**\/b` matches `a/b`),
 * `*` any run within one path segment, `?` one character within a segment, `{x,y}` alternatives.
 * Everything else is literal.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let braceDepth = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index]!;
    if (char === '*' && glob[index + 1] === '*') {
      const slashFollows = glob[index + 2] === '/';
      source += slashFollows ? '(?:.*/)?' : '.*';
      index += slashFollows ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      braceDepth += 1;
      source += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth -= 1;
      source += ')';
    } else if (char === ',' && braceDepth > 0) source += '|';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  // An unclosed brace is taken literally rather than producing an invalid expression.
  if (braceDepth > 0) return new RegExp(`^${glob.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
  return new RegExp(`^${source}$`);
}
