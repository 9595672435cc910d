import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { aes256Security, PERMISSION_BITS, type Permission } from '../pdf/aes256';
import { streamedPdf } from './streamed-pdf';

const PERMISSIONS = Object.keys(PERMISSION_BITS) as [Permission, ...Permission[]];
const Password = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(128, `${what} may be at most 128 characters`)
    .describe(`${what} (1 to 128 characters; commas, quotes, spaces and Cyrillic are fine)`);

/**
 * Password-protects a PDF with AES-256 (DECISIONS: protect): `password` opens it, `owner_password`
 * (random when not given) lifts the restrictions, `allow` lists what a reader who opened it may do.
 * Encrypted by us (../engines/aes256.ts, ../engines/rewrite.ts), so any password works: MuPDF's
 * save options have no way to carry a comma.
 */
export const spec = defineSpec({
  path: 'protect',
  type: 'protect_pdf',
  summary: 'Password-protect a PDF with AES-256',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    password: Password('password'),
    owner_password: Password('owner_password').optional(),
    allow: z
      .array(z.enum(PERMISSIONS))
      .max(PERMISSIONS.length)
      .describe(`what a reader may do: any of ${PERMISSIONS.join(', ')} (default all)`)
      .optional(),
  }),
  engine: 'pdf',
});

export async function run({ inputs, params }: RunOf<typeof spec>) {
  const owner = params.owner_password ?? Array.from(crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, '0')).join('');
  return streamedPdf(inputs[0]!.bytes, () => {}, () => aes256Security(params.password, owner, params.allow ?? PERMISSIONS));
}

