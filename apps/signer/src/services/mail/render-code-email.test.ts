import { describe, expect, it } from 'vitest'
import { renderCodeEmail } from './render-code-email.ts'
import { renderCodeSms } from './render-code-sms.ts'

describe('sign-in messages', () => {
  it('renders a branded code mail: the code large and selectable, the expiry, and what to do if unasked', () => {
    const mail = renderCodeEmail({ to: 'a@example.com', code: '042917', purpose: 'sign-in' })
    expect(mail.subject).toBe('Your Quick Links sign-in code')
    expect(mail.html).toMatch(/font-size:36px[^>]*user-select:all[^>]*>042917</)
    expect(mail.html).toContain('This code expires in 10 minutes.')
    expect(mail.html).not.toContain('href=')
    expect(mail.text).toContain('    042917')
    expect(mail.text).toContain('If you did not ask for this, ignore this e-mail')
  })

  it('puts the magic link in a button and in the text part, with the code as well, escaped', () => {
    const magicLink = 'https://pay.example.com/login?bundle=abc&orgId=o"1'
    const mail = renderCodeEmail({ to: 'a@example.com', code: '123456', purpose: 'sign-in', magicLink })
    expect(mail.subject).toBe('Your Quick Links sign-in link')
    expect(mail.html).toContain('href="https://pay.example.com/login?bundle=abc&amp;orgId=o&quot;1"')
    expect(mail.html).toContain('>Sign in to Quick Links</a>')
    expect(mail.html).toContain('>123456<')
    expect(mail.text).toContain(magicLink)
    expect(mail.text).toContain('This link and code expire in 10 minutes.')
  })

  it('texts the code in one sentence', () => {
    expect(renderCodeSms({ to: '+14155550123', code: '123456' })).toEqual({
      to: '+14155550123',
      body: 'Your Quick Links code is 123456. It expires in 10 minutes.',
    })
  })
})
