/** One e-mail; the signer renders both parts itself. */
export type SignerEmail = { to: string; subject: string; text: string; html: string }

/** One text message to an E.164 number. */
export type SignerSms = { to: string; body: string }

/**
 * How the signer reaches people; the app server passes its mail/SMS delivery. Either method
 * rejects (with an AppError such as UPSTREAM_FAILED or SERVICE_UNAVAILABLE) when the message could
 * not be handed over; the signer then forgets the code it made.
 */
export type Delivery = {
  sendEmail(message: SignerEmail): Promise<void>
  sendSms(message: SignerSms): Promise<void>
}
