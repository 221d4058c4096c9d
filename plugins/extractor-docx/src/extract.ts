import mammoth from 'mammoth';
import { checkZipLimits, DocqaError, TextBudget } from '@docqa/plugin-api';
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { htmlToBlocks } from './html-to-blocks.js';
import { docxExtractorOptionsSchema, isInflatedPart } from './options.js';
import { detectWordContainer } from './word-container.js';

/**
 * Keeps Word's built-in headings as h1..h6 whatever the document's language calls them in its style
 * ids; mammoth's default map covers the common ids, this covers the style names too.
 */
const headingStyleMap = [1, 2, 3, 4, 5, 6].flatMap((level) => [
  `p[style-name='Heading ${level}'] => h${level}:fresh`,
  `p[style-name='heading ${level}'] => h${level}:fresh`,
]);

/**
 * Extracts a .docx file. Runs in an extraction worker thread (it is the provider's `workerModule`),
 * so it imports nothing but the plugin API and its parser. `options` are the plugin's (its limits);
 * absent, the defaults apply.
 */
export async function extract(
  input: ExtractorInput,
  signal?: AbortSignal,
  options?: unknown,
): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const limits = docxExtractorOptionsSchema.parse(options ?? {});
  await refuseNonDocx(input);
  // Before mammoth, which inflates every part it reads into memory at once: a zip bomb stops here.
  try {
    const check = { filename: input.filename, plugin: 'extractor-docx', limits, isInflated: isInflatedPart };
    await checkZipLimits(input.path, check);
  } catch (error) {
    throw DocqaError.is(error, 'unsupported_media_type') ? unreadable(input.filename, error.cause) : error;
  }
  signal?.throwIfAborted();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { path: input.path },
      {
        styleMap: headingStyleMap,
        // Images are not text: skip reading their bytes instead of inlining them as data URIs.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        // A document must never make the server read other files or URLs it links to.
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch (error) {
    throw unreadable(input.filename, error);
  }
  signal?.throwIfAborted();
  const blocks = htmlToBlocks(html, { tables: input.options.tables });
  const budget = new TextBudget(input.filename, 'extractor-docx', limits.maxTextCharacters);
  for (const block of blocks) budget.spend(block.text);
  // mammoth does not expose the core properties (docProps/core.xml), so the first heading is the title.
  const title = blocks.find((block) => block.kind === 'heading')?.text;
  return { ...(title === undefined ? {} : { title }), blocks, metadata: {} };
}

async function refuseNonDocx(input: ExtractorInput): Promise<void> {
  let container;
  try {
    container = await detectWordContainer(input.path);
  } catch (error) {
    throw unreadable(input.filename, error);
  }
  if (container === 'encrypted') {
    throw new DocqaError(
      'unsupported_media_type',
      `${input.filename} is encrypted; remove the password in Word and upload it again.`,
    );
  }
  if (container === 'compound-file') {
    throw unreadable(
      input.filename,
      new Error('it is an older binary Word (.doc) file; save it as .docx and upload it again'),
    );
  }
  if (container === 'other') throw unreadable(input.filename, new Error('it is not a zip archive'));
}

function unreadable(filename: string, cause: unknown): DocqaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DocqaError('unsupported_media_type', `${filename} is not a readable Word document: ${reason}`, { cause });
}
