import type { PageOf } from '../../kernel/paging.ts';

/**
 * An article of a list page: its stored document, which stops before the value of `SCN`
 * (article-document.ts), with the SCN to append; or, with `scn` null, the whole JSON text (an
 * article answered from its tables). As UTF-8 bytes or as text, whichever the database gave.
 */
export interface ListedArticle {
  text: Uint8Array | string;
  scn: number | null;
}

/** An answer's bytes, with the buffer they were written into to give back once they were sent. */
export interface ListAnswer {
  bytes: Buffer;
  /** Call when the bytes were handed to the operating system (the response's `finish`), not before. */
  release(): void;
}

/**
 * Buffers of answers already sent, kept for the next answers. A page of 1,000 articles is about
 * 2.3 MB; a new buffer each time is memory outside V8's heap that only a garbage collection gives
 * back, and that V8 answers by full collections once some 64 MB of it piled up (a pass made one
 * every few pages). A sequential pass needs one; more clients at once take new ones.
 */
const spares: Buffer[] = [];
const SPARES = 2;
/** Larger buffers are not kept (a page of long documents): they go back to the allocator. */
const LARGEST_SPARE = 8 * 1024 * 1024;

function bufferOf(size: number): Buffer {
  const i = spares.findIndex((b) => b.length >= size);
  if (i >= 0) return spares.splice(i, 1)[0] as Buffer;
  // With room to spare, as pages differ in size: the next one fits as well.
  return Buffer.allocUnsafeSlow(Math.ceil((size * 1.25) / 65_536) * 65_536);
}

/**
 * The answer of B2B/B2C_GetAllArticles, `{"ROOT":{"SCN":..,"NEXTOFFSET":..,"ARTICLES":[..],
 * "DELETED":[..]}}`, as UTF-8 bytes: the documents' bytes copied into it as the database gave them,
 * never decoded into strings, joined and encoded again (docs/architecture.md, "Start-up and
 * memory"); texts are encoded straight into it. The same bytes as the JSON text of the page
 * (article-list-answer.test.ts). The buffer is given back with `release`, once the bytes were sent.
 */
export function articleListAnswer(root: string, page: PageOf<ListedArticle, string>): ListAnswer {
  const head = Buffer.from(
    `{"${root}":{"SCN":${page.scn},"NEXTOFFSET":${page.nextOffset},"ARTICLES":[`,
    'utf8',
  );
  const tail = Buffer.from(`],"DELETED":${JSON.stringify(page.deleted)}}}`, 'utf8');
  // The SCN texts and separators are ASCII digits and punctuation: one byte a character.
  const ends = page.items.map((item) => (item.scn === null ? '' : `${item.scn}}`));
  const lengths = page.items.map((item) =>
    typeof item.text === 'string' ? Buffer.byteLength(item.text, 'utf8') : item.text.length,
  );
  let size = head.length + tail.length + Math.max(page.items.length - 1, 0);
  for (const [i, length] of lengths.entries()) size += length + (ends[i] as string).length;
  const buffer = bufferOf(size);
  let at = head.copy(buffer, 0);
  for (const [i, item] of page.items.entries()) {
    if (i > 0) buffer[at++] = 0x2c; // ,
    if (typeof item.text === 'string') at += buffer.write(item.text, at, 'utf8');
    else {
      buffer.set(item.text, at);
      at += item.text.length;
    }
    at += buffer.write(ends[i] as string, at, 'latin1');
  }
  at += tail.copy(buffer, at);
  if (at !== size) throw new Error(`article list answer: wrote ${at} of ${size} bytes`);
  let released = false;
  return {
    bytes: buffer.subarray(0, size),
    release() {
      if (released) return;
      released = true;
      if (spares.length < SPARES && buffer.length <= LARGEST_SPARE) spares.push(buffer);
    },
  };
}
