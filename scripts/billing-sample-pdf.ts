/**
 * Writes the sample PDFs of examples/ from the sample snapshots (src/areas/billing/pdf/
 * sample-documents.ts): `node scripts/billing-sample-pdf.ts`. The rendering is deterministic, so
 * running it again leaves the files unchanged unless the layout or the samples changed.
 */
import { writeFileSync } from 'node:fs';
import { renderDocumentPdf } from '../src/areas/billing/pdf/invoice-pdf.ts';
import { SAMPLE_CREDIT_NOTE_FR, SAMPLE_INVOICE_NL } from '../src/areas/billing/pdf/sample-documents.ts';

const SAMPLES = [
  ['invoice-sample.pdf', SAMPLE_INVOICE_NL],
  ['credit-note-sample.pdf', SAMPLE_CREDIT_NOTE_FR],
] as const;

for (const [name, snapshot] of SAMPLES) {
  const bytes = await renderDocumentPdf(snapshot);
  writeFileSync(new URL(`../examples/${name}`, import.meta.url), bytes);
  console.log(`examples/${name}: ${bytes.length} bytes`);
}
