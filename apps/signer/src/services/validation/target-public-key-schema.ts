import { z } from 'zod'
import { parseP256PublicKey } from '../../crypto/keys/parse-p256-public-key.ts'

/** A frame's key for HPKE: an uncompressed P-256 point in hex (`04…`, 130 characters), lower-cased. */
export const targetPublicKeySchema = z
  .string()
  .refine((value) => parseP256PublicKey(value, 'uncompressed') !== undefined, {
    error: 'must be an uncompressed P-256 public key in hex (130 characters starting with 04)',
  })
  .transform((value) => value.toLowerCase())
