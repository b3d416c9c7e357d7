import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ValidationError } from '../errors.ts';

/** The image types the interface stores: read from the bytes, never taken from the client. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

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
  const sniffed = await fileTypeFromBuffer(data);
  const type = IMAGE_MEDIA_TYPES.find((t) => t === sniffed?.mime);
  if (!type) {
    throw new ValidationError(
      [{ name: options.field, message: 'not a JPEG, PNG or WebP image' }],
      'UNSUPPORTED_IMAGE',
    );
  }
  if (options.declaredType !== undefined && options.declaredType !== type) {
    throw new ValidationError(
      [
        {
          name: options.declaredField ?? 'content-type',
          message: `declared ${options.declaredType} but the bytes are ${type}`,
        },
      ],
      'CONTENT_TYPE_MISMATCH',
    );
  }
  return { contentType: type, sha256: createHash('sha256').update(data).digest('hex') };
}
