// A software WebAuthn authenticator for route tests: makes passkeys ("none" attestation, ES256)
// and assertions exactly as a browser hands them over (base64url JSON), so the signer's
// @simplewebauthn/server checks run unchanged. Origin, rpId, the counter and the user-verified flag
// can be set per call to play a phishing page, a cloned authenticator or a hand-built passkey.

import { randomBytes } from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setUint32(0, value)
  return bytes
}

export type SoftwarePasskey = {
  credentialId: string
  /** Counter the next assertion carries (then incremented), unless a call overrides it. */
  counter: number
  /** `{credentialId, clientDataJson, attestationObject, transports}` for a server challenge. */
  attest(
    challenge: string,
    options?: { origin?: string; rpId?: string; userVerified?: boolean },
  ): {
    credentialId: string
    clientDataJson: string
    attestationObject: string
    transports: string[]
  }
  /** The X-Stamp-WebAuthn header value over `body` (challenge: the UTF-8 hex SHA-256 of the body). */
  stamp(
    body: string,
    options?: { origin?: string; rpId?: string; counter?: number; userVerified?: boolean },
  ): string
}

export function createSoftwarePasskey(defaults: { origin: string; rpId: string }): SoftwarePasskey {
  const privateKey = p256.utils.randomSecretKey()
  const publicKey = p256.getPublicKey(privateKey, false)
  const credentialIdBytes = new Uint8Array(randomBytes(32))
  const credentialId = b64url(credentialIdBytes)
  const passkey: SoftwarePasskey = {
    credentialId,
    counter: 1,
    attest(challenge, options = {}) {
      const clientData = utf8ToBytes(
        JSON.stringify({
          type: 'webauthn.create',
          challenge,
          origin: options.origin ?? defaults.origin,
          crossOrigin: false,
        }),
      )
      const coseKey = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, publicKey.slice(1, 33)],
        [-3, publicKey.slice(33, 65)],
      ])
      const credentialIdLength = new Uint8Array(2)
      new DataView(credentialIdLength.buffer).setUint16(0, credentialIdBytes.length)
      const authData = concat(
        sha256(utf8ToBytes(options.rpId ?? defaults.rpId)),
        // UP, UV, AT; without UV (0x04) as a script that only clicks through would hand it over.
        new Uint8Array([options.userVerified === false ? 0x41 : 0x45]),
        uint32(0),
        new Uint8Array(16),
        credentialIdLength,
        credentialIdBytes,
        isoCBOR.encode(coseKey),
      )
      const attestationStatement = new Map<string, never>()
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, never> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', attestationStatement],
          ['authData', authData],
        ]),
      )
      return {
        credentialId,
        clientDataJson: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
      }
    },
    stamp(body, options = {}) {
      const counter = options.counter ?? passkey.counter
      if (options.counter === undefined) passkey.counter += 1
      const challenge = bytesToHex(sha256(utf8ToBytes(body)))
      const clientData = utf8ToBytes(
        JSON.stringify({
          type: 'webauthn.get',
          challenge: b64url(utf8ToBytes(challenge)),
          origin: options.origin ?? defaults.origin,
          crossOrigin: false,
        }),
      )
      const authenticatorData = concat(
        sha256(utf8ToBytes(options.rpId ?? defaults.rpId)),
        new Uint8Array([options.userVerified === false ? 0x01 : 0x05]), // UP, UV
        uint32(counter),
      )
      const signature = p256.sign(concat(authenticatorData, sha256(clientData)), privateKey, {
        format: 'der',
        prehash: true,
      })
      return JSON.stringify({
        authenticatorData: b64url(authenticatorData),
        clientDataJson: b64url(clientData),
        credentialId,
        signature: b64url(signature),
      })
    },
  }
  return passkey
}
