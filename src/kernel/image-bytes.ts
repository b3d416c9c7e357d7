import { createHash } from 'node:crypto';
import type { Sharp } from 'sharp';
import { KERNEL_ERRORS, ValidationError } from './errors.ts';
import { lazyPackage } from './lazy-package.ts';

/** sharp (with libvips) and file-type load on the first image, not at start (decision 53). */
export const sharp = lazyPackage<typeof import('sharp')['default']>('sharp');
const fileType = lazyPackage<typeof import('file-type')>('file-type');

/** The image types the interface stores: read from the bytes, never taken from the client. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The same, as the media types an upload route accepts. */
export const IMAGE_TYPES: string[] = [...IMAGE_MEDIA_TYPES];
/** The largest image upload (articles and shops alike). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Decoded pixels at most: a small file may still claim a huge canvas (decompression bomb). */
export const MAX_INPUT_PIXELS = 40_000_000;

export interface CheckedImage {
  contentType: (typeof IMAGE_MEDIA_TYPES)[number];
  sha256: string;
}

/**
 * Checks uploaded image bytes: size, a real JPEG, PNG or WebP by its content, and (when the client
 * declared a type) that the declaration matches the bytes. `field` names the bytes in errors.
 */
export async function checkImageBytes(
  data: Buffer,
  options: {
    maxBytes: number;
    field: string;
    declaredType?: string;
    /** Names the declared type in a mismatch error (default `content-type`, the header). */
    declaredField?: string;
    noun?: string;
  },
): Promise<CheckedImage> {
  const noun = options.noun ?? 'an image';
  if (data.length === 0 || data.length > options.maxBytes) {
    throw new ValidationError([
      { name: options.field, message: `${noun} has 1 to ${options.maxBytes} bytes` },
    ]);
  }
  const sniffed = await fileType().fileTypeFromBuffer(data);
  const type = IMAGE_MEDIA_TYPES.find((t) => t === sniffed?.mime);
  if (!type) {
    throw KERNEL_ERRORS.UNSUPPORTED_IMAGE([
      { name: options.field, message: 'not a JPEG, PNG or WebP image' },
    ]);
  }
  if (options.declaredType !== undefined && options.declaredType !== type) {
    throw KERNEL_ERRORS.CONTENT_TYPE_MISMATCH([
      {
        name: options.declaredField ?? 'content-type',
        message: `declared ${options.declaredType} but the bytes are ${type}`,
      },
    ]);
  }
  return { contentType: type, sha256: createHash('sha256').update(data).digest('hex') };
}

export interface CleanImage {
  contentType: (typeof IMAGE_MEDIA_TYPES)[number];
  /** The re-encoded bytes: what is stored and served. */
  data: Buffer;
  width: number;
  height: number;
  /** SHA-256 (hex) of `data`. */
  sha256: string;
}

/** The image decoded (at most MAX_INPUT_PIXELS, refusing damaged data) and turned upright by its EXIF orientation. */
export function decodeImage(data: Buffer): Sharp {
  return sharp()(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
}

/** Encodes in the given type; sharp writes no metadata (EXIF, GPS, XMP, IPTC, ICC) unless asked. */
export function encodeAs(image: Sharp, contentType: (typeof IMAGE_MEDIA_TYPES)[number], quality = 90): Sharp {
  if (contentType === 'image/png') return image.png({ compressionLevel: 9 });
  if (contentType === 'image/webp') return image.webp({ quality });
  return image.jpeg({ quality, mozjpeg: true });
}

/** A decoding failure as the client's error: too many pixels, or not decodable. */
export function undecodableImage(error: unknown, field: string): ValidationError {
  if (error instanceof ValidationError) return error;
  const tooLarge = /pixel limit/i.test((error as Error).message);
  return KERNEL_ERRORS.UNSUPPORTED_IMAGE([
    {
      name: field,
      message: tooLarge
        ? `the image has more than ${MAX_INPUT_PIXELS} pixels`
        : 'the image cannot be decoded',
    },
  ]);
}

/**
 * Checks uploaded image bytes (checkImageBytes) and stores only what a decoder makes of them: the
 * image is decoded and encoded again in the same type, at the same size, upright, without any
 * metadata. Whatever else the upload carried (bytes appended after the image end, a script or an
 * archive in a polyglot, EXIF with a GPS position, comments) does not survive.
 */
export async function cleanImage(
  data: Buffer,
  options: Parameters<typeof checkImageBytes>[1],
): Promise<CleanImage> {
  const { contentType } = await checkImageBytes(data, options);
  try {
    const out = await encodeAs(decodeImage(data), contentType).toBuffer({ resolveWithObject: true });
    return {
      contentType,
      data: out.data,
      width: out.info.width,
      height: out.info.height,
      sha256: createHash('sha256').update(out.data).digest('hex'),
    };
  } catch (error) {
    throw undecodableImage(error, options.field);
  }
}
