/**
 * Readable operationIds for the back-office routes, made from the method and the path, so a
 * generated client has `putArticle`, `uploadArticleImage`, `cancelOrder` rather than
 * `Admin_PUT_articles__article_`. Stable: the same route always gets the same name (a client's
 * method names do not move when routes are added); unique: test/openapi-document.test.ts checks it.
 *
 *  - the noun is the path's fixed segments, a segment followed by a key in the singular
 *    (`/customers/{customer}/addresses/{address}` -> CustomerAddress), a last one without a key as
 *    it is (`/prices` -> Prices); a second key in a row is `For<Key>` (`/regexes/{name}/{country}`);
 *  - the verb is the method (`put`, `delete`, `get`), `upload` for a raw-bytes PUT, `create` for a
 *    POST to a collection (its noun in the singular), or the action a POST path ends with
 *    (`/orders/{order}/cancel` -> cancelOrder, `/prices/delete` -> deletePrices).
 */

/** Path words written as one word that read as several. */
const WORDS: Record<string, string> = {
  sizetables: 'SizeTables',
  pickuppoints: 'PickupPoints',
  homepages: 'HomePages',
  linediscounts: 'LineDiscounts',
  actionprices: 'ActionPrices',
  customerarticlelinks: 'CustomerArticleLinks',
  clientactions: 'ClientActions',
  onaccount: 'OnAccount',
  validuntil: 'ValidUntil',
  tenderliability: 'TenderLiability',
};

/** Last segments of a POST path that name what it does rather than what it makes. */
const ACTIONS = new Set([
  'confirm',
  'start-picking',
  'cancel',
  'close',
  'receive',
  'run',
  'expire',
  'delete',
]);

const PREFIX = '/TV2/Admin/';

function pascal(segment: string): string {
  return (
    WORDS[segment] ??
    segment
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('')
  );
}

function camel(segment: string): string {
  const word = pascal(segment);
  return word.charAt(0).toLowerCase() + word.slice(1);
}

/** The singular of a path word (English plurals of the words the paths use). */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

const isKey = (segment: string) => segment.startsWith(':') || segment.startsWith('{');
const keyName = (segment: string) => segment.replace(/^[:{]|}$/g, '');

export function adminOperationId(method: string, url: string, rawBody = false): string {
  const segments = url.replace(PREFIX, '').split('/').filter(Boolean);
  let verb = method.toLowerCase();
  if (method === 'POST' && segments.length > 0 && ACTIONS.has(segments.at(-1)!)) {
    verb = camel(segments.pop()!);
  } else if (method === 'POST' && !isKey(segments.at(-1) ?? '')) {
    verb = 'create';
  } else if (method === 'PUT' && rawBody) {
    verb = 'upload';
  }
  const words: string[] = [];
  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    if (isKey(segment)) {
      if (i > 0 && isKey(segments[i - 1]!)) words.push(`For${pascal(keyName(segment))}`);
      return;
    }
    const word = pascal(segment);
    const last = next === undefined;
    words.push((next !== undefined && isKey(next)) || (last && verb === 'create') ? singular(word) : word);
  });
  return verb + words.join('');
}
