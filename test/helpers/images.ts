import { createHash } from 'node:crypto';
import sharp from 'sharp';

/**
 * Stored images are decoded and encoded again (src/kernel/image-bytes.ts), so the served
 * bytes differ from the uploaded ones. What a user relies on: the same type and size in pixels,
 * and for a lossless type (PNG) the very same pixels.
 */
export async function samePicture(served: Buffer, uploaded: Buffer): Promise<boolean> {
  const [a, b] = await Promise.all([sharp(served).metadata(), sharp(uploaded).metadata()]);
  if (a.format !== b.format || a.width !== b.width || a.height !== b.height) return false;
  if (a.format !== 'png') return true;
  const pixels = async (bytes: Buffer) => (await sharp(bytes).ensureAlpha().raw().toBuffer()).toString('hex');
  return (await pixels(served)) === (await pixels(uploaded));
}

/** The ETag the image operations send: the quoted hex SHA-256 of the bytes served. */
export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('hex')}"`;
}
