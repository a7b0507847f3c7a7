import { describe, expect, it } from 'vitest'
import { createEmptyDraft, type LinkDraft } from './link-modal-state'
import { validateLinkDraft } from './validate-link-draft'

const valid: LinkDraft = {
  ...createEmptyDraft('k'),
  alias: 'Coffee Fund',
  receiver_address: '0x1111111111111111111111111111111111111111',
  token_name: 'USDC',
  token_address: '0x00000000000000000000000000000000000000c1',
}

describe('validateLinkDraft', () => {
  it('accepts a complete draft', () => {
    expect(validateLinkDraft(valid, false)).toEqual({})
  })

  it('needs an alias of at least 3 characters after trimming', () => {
    expect(validateLinkDraft({ ...valid, alias: '  ab  ' }, false).alias).toBe(
      'Payment page name must be at least 3 characters.',
    )
  })

  it('needs a receiver of at least 6 characters that is an EVM address', () => {
    expect(validateLinkDraft({ ...valid, receiver_address: '0x12' }, false).receiver_address).toBe(
      'Wallet address must be at least 6 characters.',
    )
    expect(validateLinkDraft({ ...valid, receiver_address: '0x123456789' }, false).receiver_address).toBe(
      'Enter a valid wallet address: 0x followed by 40 hexadecimal characters.',
    )
  })

  it('needs a chain and a token', () => {
    const problems = validateLinkDraft({ ...valid, chain_id: null, token_name: '', token_address: '' }, false)
    expect(problems.chain).toBe('Choose a receive chain.')
    expect(problems.token).toBe('Choose a receive token.')
  })

  it('checks only the alias (and message length) when editing', () => {
    expect(validateLinkDraft({ ...valid, receiver_address: '', token_name: '' }, true)).toEqual({})
    expect(validateLinkDraft({ ...valid, alias: 'x' }, true).alias).toBeDefined()
  })

  it('takes an empty amount (the payer chooses) or a positive decimal, in create and edit alike', () => {
    for (const isEditing of [false, true]) {
      expect(validateLinkDraft({ ...valid, amount: '' }, isEditing)).toEqual({})
      expect(validateLinkDraft({ ...valid, amount: ' 12.50 ' }, isEditing)).toEqual({})
      expect(validateLinkDraft({ ...valid, amount: '0' }, isEditing).amount).toBe(
        'Amount must be more than zero, or leave it empty.',
      )
      expect(validateLinkDraft({ ...valid, amount: '12,5' }, isEditing).amount).toBe(
        'Amount must be a decimal string such as "12.50", or leave it empty.',
      )
    }
  })
})
