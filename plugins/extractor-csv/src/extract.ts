// Runs inside the ingestion pipeline's extraction worker threads: import nothing that needs the kernel.
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { CsvRowBlocks } from './csv-row-blocks.js';
import { decodeTextFile } from '@docqa/plugin-api';

function isTabSeparated(input: ExtractorInput): boolean {
  return input.mediaType === 'text/tab-separated-values' || input.filename.toLowerCase().endsWith('.tsv');
}

/**
 * Extracts a CSV or TSV file as one table_row block per data row, whatever `options.tables` says: a
 * CSV is a table, and its rows read as nothing else. The file streams through the parser row by row,
 * so only the blocks are held, never the file.
 */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const rows = new CsvRowBlocks();
  const source = Readable.from(decodeTextFile(input.path, input.filename, signal));
  let record = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      Papa.parse<string[]>(source, {
        // An empty delimiter lets papaparse guess among , ; | and tab, for CSVs saved in other locales.
        delimiter: isTabSeparated(input) ? '\t' : '',
        skipEmptyLines: 'greedy',
        step(result, parser) {
          if (signal?.aborted) return parser.abort();
          // Records as the parser yields them, empty ones already skipped (skipping them here instead
          // would change how it guesses the delimiter): a file without blank lines counts as a sheet does.
          record += 1;
          // A file of one column has no delimiter to detect; that is not a problem with the file.
          const problems = result.errors.filter((error) => error.code !== 'UndetectableDelimiter');
          rows.addRow(result.data, problems.length > 0, record);
        },
        complete: () => resolve(),
        error: (error: Error) => reject(error),
      });
    });
  } finally {
    source.destroy();
  }
  signal?.throwIfAborted();
  const title = input.filename.replace(/\.[^.]*$/, '') || input.filename;
  const metadata: Record<string, string> = rows.warnings > 0 ? { parse_warnings: String(rows.warnings) } : {};
  return { title, blocks: rows.blocks, metadata };
}
