/**
 * The conventions of the interface, as the OpenAPI document's `info.description` (markdown): what a
 * client developer needs besides the operations themselves (docs/api-conventions.md and
 * shared/reference/wire-conventions.md say the same at more length).
 */
export const API_DESCRIPTION = `Wholesale (\`B2B_\`) and retail (\`B2C_\`) operations of a self-hostable trade back end, and its back office (\`/TV2/Admin\`).

## Paths and package aliases
Every operation is \`/TV2/Execute/APIPACK.<Name>\`, the name in its exact case. The package name has aliases (\`TV2_PACKAGE_ALIASES\`, by default \`APIPACK,GCAPIPACK\`): \`/TV2/Execute/GCAPIPACK.B2B_GetArticle\` is the same operation as \`/TV2/Execute/APIPACK.B2B_GetArticle\`, so a client written for the original \`GCAPIPACK\` deployment only changes its base URL. This document lists each operation once, under the first alias. An unknown operation is 404 \`UNKNOWN_OPERATION\`; a known one asked with another method is 405 with \`Allow\`.

## Authentication and confinement
\`GET /TV2/GetToken\` with HTTP Basic credentials of an API user answers \`TOKEN\` and its lifetime (\`EXPIRES_IN\` seconds, \`EXPIRES\`); send it as \`Authorization: Bearer <TOKEN>\` and get a new one when it expires (401 \`TOKEN_EXPIRED\`). A missing, unknown, expired or revoked token is 401 with \`WWW-Authenticate\`; a token without the operation's role (\`B2B\` for \`B2B_\`, \`B2C\` for \`B2C_\`, \`ADMIN\` for the back office) is 403 \`ROLE_REQUIRED\`. \`APIPing\` needs no token.

An API user may be **confined** to one customer (wholesale) or one client (retail): its token sees and changes only that party. It may leave the party parameter out or send \`strcustomer=0\` / \`strclient=0\` (for an unconfined token \`0\` means "all"; for a confined one, its own party); naming another party is 403 \`OUTSIDE_SCOPE\`, decided before anything is looked up, so the answer tells nothing about whether that party exists.

## Query values are strings
Query parameters are lower case with a \`str\` prefix (\`strcustomer\`, \`strarticle\`), and every value is a string on the wire: numbers are written with digits only (\`strlimit=100\`), which the schemas state as \`type: string\` with a \`pattern\` and the largest value (\`x-digits-max\`). \`12x\`, a number over its range, or an unknown parameter is 400 \`VALIDATION_FAILED\` naming the parameter. Where an original body types a number as a string (\`B2B_PostOrdCus\`: prices, quantities, discounts), a JSON number or a numeric string is taken.

## Bodies and answers
JSON, UTF-8. Every answer has one root named after its operation, upper case without underscores (\`B2BGETORDER\`; \`B2B_GetAllPrices\` answers \`B2BGETPRICE\`); lists sit under a plural key inside it. Keys are upper case; keys of the original keep its spelling, **spaces included**: \`DELIVERY ADDRESSES\`, \`INVOICE ADDRESSES\`, \`PRICE PER CURRENCY\`, \`PRICE PER SIZE\`, \`IS ASSORTEMENT\` (in JavaScript: \`order['DELIVERY ADDRESSES']\`). Unknown body fields are 400. Dates are \`YYYY-MM-DD\`, instants ISO 8601 UTC without fractions (\`2026-11-22T18:28:14Z\`); money is a JSON number with at most two decimals next to its ISO 4217 \`CURRENCY\`. Text in several languages is an object of the slots \`LANGUAGE_1\`, \`LANGUAGE_11\`, \`LANGUAGE_2\`, \`LANGUAGE_3\`, \`LANGUAGE_4\`, each present (empty when no text is kept). Binary answers (images, PDFs) carry their media type; images an \`ETag\`, and \`If-None-Match\` with it gives 304.

## Paging and sync by SCN
Lists page by \`stroffset\` (a position, 1 for the first page) and \`strlimit\` (each operation documents its default and maximum). An answer holds \`NEXTOFFSET\`: the \`stroffset\` of the next page, or \`null\` on the last one. Pass it back as it is; it is a position, not a count, so never compute it.

Every write moves one system change number. A list or feed taking \`strscn\` answers only what changed after that SCN (\`0\`: everything), with \`SCN\`: the value to send as \`strscn\` next time, and \`DELETED\`: the keys of records deleted (or, for retail, withdrawn) since. To sync: read all pages with \`strscn=0\` keeping the \`SCN\` of the first page, then poll with \`strscn=<that SCN>\`, following \`NEXTOFFSET\` to the end each time and keeping the first page's \`SCN\` again. No change is missed, also with concurrent writers.

## Retrying writes: Idempotency-Key
A POST operation takes an optional \`Idempotency-Key\` header (any string; a UUID per logical request). A repeat with the same key and the same body by the same API user within 24 hours does not act again: it answers the first answer again, status and body, with \`Idempotent-Replayed: true\`. The same key with another body is 409 \`IDEMPOTENCY_KEY_REUSED\`; a repeat while the first request still runs is 409 \`IDEMPOTENCY_KEY_IN_USE\` with \`Retry-After\`. Natural keys (\`WEBORDER\`, \`WEBID\`, a cashing's \`REFERENCE\`) make those writes safe to repeat as well.

## Errors
Every answer that is not 2xx or 304 is \`application/problem+json\` (RFC 9457): \`type\`, \`title\`, \`status\`, \`detail\`, \`requestId\`, and \`code\`, a stable upper-case code to program against (\`ARTICLE_NOT_FOUND\`; the \`Problem\` schema lists every code, and each response of this document the codes of its status). A 400 names each bad parameter or field under \`errors\` (\`name\`: the parameter, or a JSON pointer into the body), the first 20, and counts them in \`errorCount\`. Every answer carries \`X-Request-Id\` (your own when you send one of 1 to 64 characters \`A-Z a-z 0-9 . _ : -\`); quote it when reporting a 500. 503 \`DATABASE_UNAVAILABLE\` comes with \`Retry-After\`.

## Planned operations
An operation of the TV2 interface whose area is not built yet is listed (\`x-tv2-status: planned\`) and answers 501 \`NOT_IMPLEMENTED\`.

## Rate limits
Failed \`GetToken\` logins are limited per client address and per user name (429 \`TOO_MANY_FAILED_LOGINS\`); while too many logins are being checked, 503 \`LOGIN_BUSY\`. Refused voucher and cheque codes are limited per API user (429 \`VOUCHER_CHECKS_THROTTLED\`, also when an order is paid with one). Both come with \`Retry-After\` in seconds. There is no other request-rate limit.

## Limits
Bodies are limited in size (413), must be \`application/json\` (or the image types of an upload; otherwise 415), nest at most 32 levels with at most 1,000 members per object (400 \`BODY_TOO_COMPLEX\`), and hold no U+0000 anywhere (400). A key in a path is at most 100 characters (414).`;
