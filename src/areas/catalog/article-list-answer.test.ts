import { describe, expect, it } from 'vitest';
import { answerOf } from './article-document.ts';
import { articleListAnswer, type ListedArticle } from './article-list-answer.ts';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** The answer as the JSON text the list operations answered before it was put together from bytes. */
function asText(
  root: string,
  page: { scn: number; nextOffset: number | null; items: string[]; deleted: string[] },
) {
  return `{"${root}":{"SCN":${page.scn},"NEXTOFFSET":${page.nextOffset},"ARTICLES":[${page.items.join(',')}],"DELETED":${JSON.stringify(page.deleted)}}}`;
}

describe('the article list answer from bytes and texts', () => {
  it('is byte for byte the page joined as text: documents as bytes and as text, built articles, non-ASCII texts', () => {
    const documents = [
      '{"ARTICLE":"M1","COLOURDESCRIPTION":{"LANGUAGE_3":"Größe Marineblau"},"SCN":',
      '{"ARTICLE":"M2","ARTICLEDESCRIPTION":{"LANGUAGE_4":"T-shirt été, 😀"},"SCN":',
    ];
    const built = '{"ARTICLE":"M3 ü","SCN":7}';
    const items: ListedArticle[] = [
      { text: utf8(documents[0] as string), scn: 1234567 },
      { text: built, scn: null },
      { text: utf8(documents[1] as string), scn: 0 },
      { text: documents[1] as string, scn: 88 },
    ];
    const page = { scn: 9_007_199, nextOffset: 42, deleted: ['X-1', 'Ä"2'] };
    const answer = articleListAnswer('B2BGETALLARTICLES', { ...page, items }).bytes;
    const want = asText('B2BGETALLARTICLES', {
      ...page,
      items: [
        answerOf(documents[0] as string, 1234567),
        built,
        answerOf(documents[1] as string, 0),
        answerOf(documents[1] as string, 88),
      ],
    });
    expect(answer.equals(utf8(want))).toBe(true);
    expect(JSON.parse(answer.toString('utf8')).B2BGETALLARTICLES.ARTICLES[1].ARTICLE).toBe('M3 ü');
  });

  it('answers an empty page and the last page (NEXTOFFSET null)', () => {
    const page = { scn: 5, nextOffset: null, deleted: [] };
    expect(articleListAnswer('B2CGETALLARTICLES', { ...page, items: [] }).bytes.toString('utf8')).toBe(
      asText('B2CGETALLARTICLES', { ...page, items: [] }),
    );
    const one = '{"ARTICLE":"A","SCN":';
    expect(
      articleListAnswer('B2CGETALLARTICLES', {
        ...page,
        items: [{ text: utf8(one), scn: 3 }],
      }).bytes.toString('utf8'),
    ).toBe(asText('B2CGETALLARTICLES', { ...page, items: [answerOf(one, 3)] }));
  });

  it('writes the next answer into a buffer given back, never into one not yet sent', () => {
    const page = (n: number) => ({
      scn: n,
      nextOffset: null,
      deleted: [],
      items: [{ text: `{"ARTICLE":"${'A'.repeat(n)}","SCN":`, scn: n }],
    });
    const first = articleListAnswer('R', page(100));
    const second = articleListAnswer('R', page(90));
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    first.release();
    first.release(); // once only
    const third = articleListAnswer('R', page(80));
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    const fourth = articleListAnswer('R', page(70));
    expect(fourth.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(third.bytes.toString('utf8')).toBe(
      asText('R', {
        scn: 80,
        nextOffset: null,
        deleted: [],
        items: [answerOf(page(80).items[0]?.text ?? '', 80)],
      }),
    );
    for (const answer of [second, third, fourth]) answer.release();
  });
});
