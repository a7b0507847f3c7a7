/** One text message to one phone number (E.164, validated by the caller). */
export type SmsMessage = { to: string; body: string }

/**
 * Sends text messages: the Twilio adapter in production, the dev outbox in development. A send
 * resolves once the provider has accepted the message, and rejects with an AppError otherwise.
 */
export type SmsProvider = {
  send(message: SmsMessage): Promise<void>
}
