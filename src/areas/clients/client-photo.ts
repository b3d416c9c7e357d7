import { createHash } from 'node:crypto';
import { ValidationError } from '../../kernel/errors.ts';
import { checkImageBytes, decodeImage, encodeAs, sharp, undecodableImage } from '../../kernel/image-bytes.ts';

/** Largest photo accepted, decoded (its base64 text is a third longer). */
export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;
/** Longest base64 text of a photo of MAX_PHOTO_BYTES. */
export const MAX_PHOTO_BASE64 = Math.ceil(MAX_PHOTO_BYTES / 3) * 4;
/** A stored profile photo fits in this square. */
export const PROFILE_MAX_SIDE = 1024;
/** The member-card photo: passport-like 7:9, centred on what draws attention. */
export const CARD_PHOTO = { width: 420, height: 540 } as const;

export interface ProcessedPhoto {
  contentType: string;
  data: Buffer;
  width: number;
  height: number;
  sha256: string;
}

/** A photo is named by this pointer in the record that brings it (PROFILEPHOTODATA). */
const PHOTO_FIELD = '/PHOTO';

/**
 * Strict base64 (padding required, no line breaks, no data: prefix). Its length (at most
 * MAX_PHOTO_BASE64) is the request schema's.
 */
export function decodeBase64Photo(text: string): Buffer {
  // Canonical base64 only: what decodes and encodes back to the same text. Native both ways, where
  // a regular expression over 2.8 MB held the event loop for tens of milliseconds.
  const data = Buffer.from(text, 'base64');
  if (text.length % 4 !== 0 || data.toString('base64') !== text) {
    throw new ValidationError([{ name: PHOTO_FIELD, message: 'is not valid base64' }]);
  }
  return data;
}

/**
 * Checks and cleans a client's photo. The type is sniffed from the bytes (JPEG, PNG or WebP; a
 * declared type must agree), then the image is decoded and encoded again: oriented by its EXIF
 * orientation first, scaled to fit PROFILE_MAX_SIDE, and written without any metadata (EXIF with
 * GPS position, camera serials, XMP, IPTC, ICC: sharp keeps none unless asked). Also makes the
 * member-card version (JPEG, CARD_PHOTO size, cropped to the region of interest).
 */
export async function processPhoto(
  data: Buffer,
  declaredType?: string,
): Promise<{ profile: ProcessedPhoto; card: ProcessedPhoto }> {
  const { contentType } = await checkImageBytes(data, {
    maxBytes: MAX_PHOTO_BYTES,
    field: PHOTO_FIELD,
    declaredType,
    declaredField: PHOTO_FIELD,
    noun: 'a photo',
  });
  try {
    const resized = decodeImage(data).resize({
      width: PROFILE_MAX_SIDE,
      height: PROFILE_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const profile = await encodeAs(resized, contentType, 85).toBuffer({ resolveWithObject: true });
    const card = await decodeImage(data)
      .resize({ ...CARD_PHOTO, fit: 'cover', position: sharp().strategy.attention })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return {
      profile: photoOf(contentType, profile.data, profile.info.width, profile.info.height),
      card: photoOf('image/jpeg', card.data, card.info.width, card.info.height),
    };
  } catch (error) {
    throw undecodableImage(error, PHOTO_FIELD);
  }
}

function photoOf(contentType: string, data: Buffer, width: number, height: number): ProcessedPhoto {
  return { contentType, data, width, height, sha256: createHash('sha256').update(data).digest('hex') };
}
