import { describe, expect, it } from 'vitest'
import { createKeyStamper } from './create-key-stamper.ts'
import { assertWebAuthnSupported, createPasskey, stampWithPasskey } from './passkey-webauthn.ts'
import { createSignerClient } from './signer-client.ts'
import { createSignerStore } from './signer-store.ts'

// Node has a `navigator` but no `navigator.credentials`: every passkey path must say so before it
// asks the signer anything (the client points at a port nothing listens on).

describe('passkeys without WebAuthn', () => {
  it("refuses with 'webauthn is not supported by this browser'", async () => {
    expect(() => assertWebAuthnSupported()).toThrow('webauthn is not supported by this browser')
    await expect(
      createPasskey({ challenge: 'abc', userName: 'anonymous', rpId: 'localhost' }),
    ).rejects.toThrow('webauthn is not supported by this browser')
    await expect(stampWithPasskey('{}', { rpId: 'localhost' })).rejects.toThrow(
      'webauthn is not supported by this browser',
    )
  })

  it('leaves the store DISCONNECTED with the error stored, for sign-in and sign-up alike', async () => {
    const store = createSignerStore({
      client: createSignerClient({ baseUrl: 'http://127.0.0.1:9' }),
      stamper: createKeyStamper(),
      storage: null,
      eventTarget: null,
    })
    const statuses: string[] = []
    store.subscribe((state) => statuses.push(state.status))
    for (const input of [undefined, { createNew: true, email: 'ada@example.com' }]) {
      await expect(store.getState().authenticateWithPasskey(input)).rejects.toThrow(
        'webauthn is not supported by this browser',
      )
      expect(store.getState().status).toBe('DISCONNECTED')
      expect(store.getState().error?.message).toBe('webauthn is not supported by this browser')
    }
    expect(statuses).toContain('AUTHENTICATING_PASSKEY')
    store.destroy()
  })
})
