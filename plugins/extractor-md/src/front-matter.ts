/**
 * The simple `key: value` lines of YAML front matter. Nested values, lists and multi-line strings
 * are skipped rather than half-parsed: metadata is flat strings, and a wrong value is worse than none.
 */
export function frontMatterMetadata(lines: readonly string[]): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([A-Za-z_][\w.-]*)[ \t]*:[ \t]+(.*?)[ \t]*$/.exec(line);
    if (!match) continue;
    const value = unquote(match[2]!);
    if (value === '' || value === '|' || value === '>' || value.startsWith('[') || value.startsWith('{')) continue;
    metadata[match[1]!] = value;
  }
  return metadata;
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value.replace(/[ \t]+#.*$/, '');
}
