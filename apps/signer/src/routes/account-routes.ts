import { AppError } from '@quicklinks/core/app-error'
import { type SignerCallAnswer, signerActivities } from '@quicklinks/protocol/signer-activities'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getAddress } from 'viem'
import type { SignerAccount } from '../services/accounts/find-account.ts'
import { getAccountOrThrow } from '../services/accounts/get-account-or-throw.ts'
import { listAuthMethods } from '../services/accounts/list-auth-methods.ts'
import { removeAccountContact } from '../services/accounts/remove-account-contact.ts'
import { revokeSessionKeys } from '../services/accounts/revoke-session-keys.ts'
import { updateAccountContact } from '../services/accounts/update-account-contact.ts'
import { requireStepUp, toStepUpStamp } from '../services/step-up/require-step-up.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'

function toWhoami(account: SignerAccount): SignerCallAnswer<'whoami'> {
  return {
    orgId: account.organizationId,
    userId: account.userId,
    // Checksummed and typed as the answer's 0x hex (the stored address always is one).
    address: getAddress(account.evmAddress),
    solanaAddress: account.solanaAddress,
    email: account.email,
    phone: account.phone,
    walletId: account.walletId,
  }
}

/**
 * Stamped routes about the signed-in user: whoami, contacts, sign-in methods, logout. A contact
 * change is built and stamped in the frames origin (the auth frame refuses such bodies from the
 * app page; docs/decisions/0014), needs proof of the current contact, tells the old contact and
 * ends the account's other sessions.
 */
export const accountRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  // Each route's stamp check runs as its preHandler; the handlers read the verified call.
  const stamped = {
    whoami: createStampedRoute(context, signerActivities.whoami),
    // The optional `suborgId` (docs/signer.md#list-auth-methods), and when sent it must be the stamped organization.
    listAuthMethods: createStampedRoute(context, signerActivities.listAuthMethods),
    updateEmail: createStampedRoute(context, signerActivities.updateEmail, { stepUpInService: true }),
    updatePhone: createStampedRoute(context, signerActivities.updatePhone, { stepUpInService: true }),
    removeEmail: createStampedRoute(context, signerActivities.removeEmail, { stepUpInService: true }),
    removePhone: createStampedRoute(context, signerActivities.removePhone, { stepUpInService: true }),
    revokeSession: createStampedRoute(context, signerActivities.revokeSession),
  }

  app.post(
    '/whoami',
    {
      schema: {
        summary: 'The user and wallet behind the session key that stamped the request',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.whoami.answer },
      },
      preHandler: stamped.whoami.verifyStamp,
    },
    // POST /signer/v1/whoami: the stamping session key's user, with addresses and contacts.
    async (request) => {
      const verified = stamped.whoami.getVerified(request)
      return toWhoami(await getAccountOrThrow(context.db, verified.userId))
    },
  )

  app.post(
    '/list-auth-methods',
    {
      schema: {
        summary: "The user's sign-in methods",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.listAuthMethods.answer },
      },
      preHandler: stamped.listAuthMethods.verifyStamp,
    },
    // POST /signer/v1/list-auth-methods: e-mail, phone, passkeys and linked OAuth providers.
    async (request) => {
      const verified = stamped.listAuthMethods.getVerified(request)
      const { suborgId } = verified.parameters
      if (suborgId !== undefined && suborgId !== verified.organizationId) {
        throw new AppError('FORBIDDEN', {
          message: 'list-auth-methods: suborgId is not the stamped organization',
          userMessage: 'You can only list the sign-in methods of your own account.',
        })
      }
      return listAuthMethods(context.db, verified.userId)
    },
  )

  app.post(
    '/update-email-auth',
    {
      schema: {
        summary:
          "Replaces the user's e-mail with one proven by a verification token (and the current one's); tells the old address, ends other sessions",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.updateEmail.answer },
      },
      preHandler: stamped.updateEmail.verifyStamp,
    },
    // POST /signer/v1/update-email-auth: set a verified e-mail as the user's sign-in e-mail.
    async (request) => {
      const verified = stamped.updateEmail.getVerified(request)
      const { email, verificationToken, previousContactVerificationToken } = verified.parameters
      const account = await updateAccountContact(context, {
        userId: verified.userId,
        publicKey: verified.publicKey,
        contact: { channel: 'email', address: email },
        verificationToken,
        previousContactVerificationToken,
        requireStepUp: (reauthDone) =>
          requireStepUp(context, {
            userId: verified.userId,
            stamp: toStepUpStamp(verified),
            proof: verified.stepUp,
            reauthDone,
          }),
      })
      return toWhoami(account)
    },
  )

  app.post(
    '/update-phone-auth',
    {
      schema: {
        summary:
          "Replaces the user's phone with one proven by a verification token (and the current one's); tells the old number, ends other sessions",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.updatePhone.answer },
      },
      preHandler: stamped.updatePhone.verifyStamp,
    },
    // POST /signer/v1/update-phone-auth: set a verified phone as the user's sign-in phone.
    async (request) => {
      const verified = stamped.updatePhone.getVerified(request)
      const { phone, verificationToken, previousContactVerificationToken } = verified.parameters
      const account = await updateAccountContact(context, {
        userId: verified.userId,
        publicKey: verified.publicKey,
        contact: { channel: 'sms', address: phone },
        verificationToken,
        previousContactVerificationToken,
        requireStepUp: (reauthDone) =>
          requireStepUp(context, {
            userId: verified.userId,
            stamp: toStepUpStamp(verified),
            proof: verified.stepUp,
            reauthDone,
          }),
      })
      return toWhoami(account)
    },
  )

  for (const [call, route, channel] of [
    [signerActivities.removeEmail, stamped.removeEmail, 'email'],
    [signerActivities.removePhone, stamped.removePhone, 'sms'],
  ] as const) {
    app.post(
      `/${call.path}`,
      {
        schema: {
          summary: `Takes the user's ${channel === 'email' ? 'e-mail' : 'phone'} off the account, proven by a code sent to it; never the last way to sign in`,
          tags: ['signer'],
          body: stampedRequestBodySchema,
          response: { 200: call.answer },
        },
        preHandler: route.verifyStamp,
      },
      // POST /signer/v1/remove-email-auth | remove-phone-auth: remove a contact the user proved they read.
      async (request) => {
        const verified = route.getVerified(request)
        // The code to the contact itself is the re-authentication; an authenticator code besides.
        await requireStepUp(context, {
          userId: verified.userId,
          stamp: toStepUpStamp(verified),
          proof: verified.stepUp,
          reauthDone: true,
        })
        const account = await removeAccountContact(context, {
          userId: verified.userId,
          publicKey: verified.publicKey,
          channel,
          verificationToken: verified.parameters.verificationToken,
        })
        return toWhoami(account)
      },
    )
  }

  app.post(
    '/revoke-session',
    {
      schema: {
        summary: 'Ends the session key that stamped the request (logout); its later stamps get 401',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.revokeSession.answer },
      },
      preHandler: stamped.revokeSession.verifyStamp,
    },
    // POST /signer/v1/revoke-session: logout at the signer, so a copy of the key stops working now.
    async (request) => {
      const verified = stamped.revokeSession.getVerified(request)
      const count = await revokeSessionKeys(
        context.db,
        { userId: verified.userId, publicKey: verified.publicKey },
        context.now(),
      )
      return { revoked: count === 1 }
    },
  )
}
