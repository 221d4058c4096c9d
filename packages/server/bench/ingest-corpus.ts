/**
 * The generated corpus of `npm run bench:ingest`: Markdown case files with headings, paragraphs and a
 * table, written with a seeded generator so every run indexes the same bytes. Words come from the
 * tiny test BERT's vocabulary, so a chunk of about 256 estimated tokens is about as many model tokens
 * as it would be with a real model and real English.
 */
import fs from 'node:fs';
import path from 'node:path';

const words = `the of and to in is it you that he was for on are with as his they be at one have this from or
had by word but what some we can out other were all there when up use your how said an each she which do
their time if will way about many then them write would like so these her long make thing see him two has
look more day could go come did number sound no most people my over know water than call first who may down
side been now find any new work part take get place made live where after back little only round man year
came show every good me give our under name very through just form sentence great think say help low line
turn cause much mean before move right boy old too same tell does set three want air well also play small
end put home read hand port large spell add even land here must big high such follow act why ask men change
went light kind off need house picture try us again animal point mother world near build self earth father
head stand own page should country found answer school grow study still learn plant cover food sun four
between state keep eye never last let thought city tree cross farm hard start might story saw far sea draw
left late run while press close night real life few north open seem together next white children begin got
walk example ease paper group always music those both mark often letter until mile river car feet care second
book carry took science eat room friend began idea fish mountain stop once base hear horse cut sure watch
color face wood main enough plain girl usual young ready above ever red list though feel talk bird soon body
dog family direct pose leave song measure door product black short class wind question happen complete ship
area half rock order fire south problem piece told knew pass since top whole king space heard best hour
better true during hundred five remember step early hold west ground interest reach fast sing listen six
table travel less morning ten simple several toward war lay against pattern slow center love person money
serve appear road map rain rule govern pull cold notice voice unit power town fine certain fly fall lead`.split(/\s+/);

const departments = ['Finance', 'Legal', 'Research', 'Sales', 'Support', 'Operations'];

/** A small, fast, seeded generator (mulberry32): the same seed writes the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number): string {
  const length = 8 + Math.floor(next() * 12);
  const picked = Array.from({ length }, () => words[Math.floor(next() * words.length)]!);
  const text = picked.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  return Array.from({ length: 3 + Math.floor(next() * 5) }, () => sentence(next)).join(' ');
}

/**
 * One case file of about `chunks` chunks (the chunker packs paragraphs to about 256 tokens, and a
 * section never mixes with the next). Case numbers and the department are what the rules find.
 */
function caseFile(index: number, chunks: number, next: () => number): string {
  const department = departments[index % departments.length]!;
  const lines = [`# Case file ${index}`, '', `Department: ${department}`, ''];
  for (let section = 0; section < Math.ceil(chunks / 3); section += 1) {
    lines.push(`## Case ${index * 1000 + section}`, '');
    // About 3 chunks a section: 6 paragraphs of about 90 words, each a bit over half a chunk.
    for (let p = 0; p < 6; p += 1) lines.push(paragraph(next), '');
    if (section % 4 === 0)
      lines.push(
        '| Item | Amount | Owner |',
        '| --- | --- | --- |',
        ...Array.from(
          { length: 4 },
          (_, row) => `| ${words[(section + row) % words.length]} | ${row * 17 + section} | ${department} |`,
        ),
        '',
      );
  }
  return lines.join('\n');
}

export interface Corpus {
  dir: string;
  files: number;
  bytes: number;
}

/** Writes the corpus into dir: enough case files for at least `targetChunks` chunks. */
export function writeCorpus(dir: string, targetChunks: number, seed = 20_240_901): Corpus {
  fs.mkdirSync(dir, { recursive: true });
  const next = random(seed);
  const chunksPerFile = 60;
  // A file planned for 60 chunks makes about 57 (short paragraphs pack together): plan on 55.
  const files = Math.ceil(targetChunks / 55);
  let bytes = 0;
  for (let index = 0; index < files; index += 1) {
    const text = caseFile(index, chunksPerFile, next);
    bytes += Buffer.byteLength(text);
    // Folders of 100 files, as real shares have; the connector walks them.
    const folder = path.join(dir, `batch-${String(Math.floor(index / 100)).padStart(3, '0')}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `case-${String(index).padStart(5, '0')}.md`), text);
  }
  return { dir, files, bytes };
}

/** The metadata rules of the bench's source (spec 2.4): document and chunk values, a boundary, a file name value. */
export const benchRules = [
  // A boundary rule too: the department line starts a chunk of its own (merged on if it is too short).
  {
    field_name: 'department',
    pattern: 'Department: (\\w+)',
    scope: 'header',
    level: 'document',
    chunk_boundary: true,
    priority: 10,
  },
  // Rules see the extracted text, where a heading is its text alone ("Case 12003").
  {
    field_name: 'case',
    pattern: '(?m)^Case (\\d+)$',
    scope: 'full',
    level: 'chunk',
    chunk_boundary: false,
    priority: 5,
  },
  { field_name: 'owner', pattern: 'Owner: (\\w+)', scope: 'full', level: 'chunk', chunk_boundary: false, priority: 1 },
  {
    field_name: 'batch',
    pattern: 'case-(\\d{3})',
    scope: 'filename',
    level: 'document',
    chunk_boundary: false,
    priority: 1,
  },
];
