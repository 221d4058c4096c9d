/**
 * Markdown inline markup reduced to the text a reader sees: link and image text without the URL,
 * code spans, bold, italics and strikethrough without their markers, and backslash escapes resolved.
 * This is a deliberately small subset; what it does not recognise stays as written, which is still
 * readable text to index.
 */
export function plainInlineText(markdown: string): string {
  // Escaped characters are set aside first so that `\*` never opens emphasis.
  const escaped: string[] = [];
  let text = markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, (_, character: string) => {
    escaped.push(character);
    return `\uE000${escaped.length - 1}\uE001`;
  });
  text = text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/(`+)(.+?)\1/g, (_, _fence: string, code: string) => code.trim())
    .replace(/(\*\*|__)(?=\S)(.+?\S)\1/g, '$2')
    .replace(/~~(?=\S)(.+?\S)~~/g, '$1')
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w_])_(?=\S)([^_]*?\S)_(?![\w_])/g, '$1$2');
  return text.replace(/\uE000(\d+)\uE001/g, (_, index: string) => escaped[Number(index)] ?? '');
}
