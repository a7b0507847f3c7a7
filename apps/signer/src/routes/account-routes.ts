import { AppError } from '@quicklinks/core/app-error'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { SignerAccount } from '../services/accounts/find-account.ts'
import { getAccountOrThrow } from '../services/accounts/get-account-or-throw.ts'
import { listAuthMethods } from '../services/accounts/list-auth-methods.ts'
import { removeAccountContact } from '../services/accounts/remove-account-contact.ts'
import { revokeSessionKeys } from '../services/accounts/revoke-session-keys.ts'
import { updateAccountContact } from '../services/accounts/update-account-contact.ts'
import { emailSchema, phoneSchema } from '../services/contacts/contact-schemas.ts'
import { requireStepUp, toStepUpStamp } from '../services/step-up/require-step-up.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'

const verificationTokenSchema = z.string().min(1).max(4096)

/**
 * A contact change's proofs: the new contact's `verify-otp` token and, when the account already
 * has a contact on that channel, the current one's (update-account-contact.ts).
 */
const contactProofSchema = {
  verificationToken: verificationTokenSchema,
  previousContactVerificationToken: verificationTokenSchema.optional(),
}

const whoamiResponseSchema = z.object({
  orgId: z.string(),
  userId: z.string(),
  address: z.string(),
  solanaAddress: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  walletId: z.string(),
})

function toWhoami(account: SignerAccount): z.infer<typeof whoamiResponseSchema> {
  return {
    orgId: account.organizationId,
    userId: account.userId,
    address: account.evmAddress,
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
  const noParametersSchema = z.object({}).passthrough()
  const stamped = {
    whoami: createStampedRoute(context, {
      type: signerActivities.whoami.type,
      parametersSchema: noParametersSchema,
    }),
    listAuthMethods: createStampedRoute(context, {
      type: signerActivities.listAuthMethods.type,
      // The optional `suborgId` (docs/signer.md#list-auth-methods), and when sent it must be the stamped organization.
      parametersSchema: z.object({ suborgId: z.string().max(128).optional() }).passthrough(),
    }),
    updateEmail: createStampedRoute(context, {
      type: signerActivities.updateEmail.type,
      stepUp: signerActivities.updateEmail.stepUp,
      stepUpInService: true,
      parametersSchema: z.object({ email: emailSchema, ...contactProofSchema }),
    }),
    updatePhone: createStampedRoute(context, {
      type: signerActivities.updatePhone.type,
      stepUp: signerActivities.updatePhone.stepUp,
      stepUpInService: true,
      parametersSchema: z.object({ phone: phoneSchema, ...contactProofSchema }),
    }),
    removeEmail: createStampedRoute(context, {
      type: signerActivities.removeEmail.type,
      stepUp: signerActivities.removeEmail.stepUp,
      stepUpInService: true,
      parametersSchema: z.object({ verificationToken: verificationTokenSchema }),
    }),
    removePhone: createStampedRoute(context, {
      type: signerActivities.removePhone.type,
      stepUp: signerActivities.removePhone.stepUp,
      stepUpInService: true,
      parametersSchema: z.object({ verificationToken: verificationTokenSchema }),
    }),
    revokeSession: createStampedRoute(context, {
      type: signerActivities.revokeSession.type,
      parametersSchema: noParametersSchema,
    }),
  }

  app.post(
    '/whoami',
    {
      schema: {
        summary: 'The user and wallet behind the session key that stamped the request',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: whoamiResponseSchema },
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
        response: {
          200: z.object({
            email: z.string().nullable(),
            phone: z.string().nullable(),
            oauthProviders: z.array(
              z.object({
                providerId: z.string().nullable(),
                issuer: z.string(),
                subject: z.string(),
                email: z.string().nullable(),
                createdAt: z.string(),
              }),
            ),
            passkeys: z.array(
              z.object({ id: z.string(), name: z.string().nullable(), createdAt: z.string() }),
            ),
          }),
        },
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
        response: { 200: whoamiResponseSchema },
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
        response: { 200: whoamiResponseSchema },
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

  for (const [path, route, channel] of [
    [signerActivities.removeEmail.path, stamped.removeEmail, 'email'],
    [signerActivities.removePhone.path, stamped.removePhone, 'sms'],
  ] as const) {
    app.post(
      `/${path}`,
      {
        schema: {
          summary: `Takes the user's ${channel === 'email' ? 'e-mail' : 'phone'} off the account, proven by a code sent to it; never the last way to sign in`,
          tags: ['signer'],
          body: stampedRequestBodySchema,
          response: { 200: whoamiResponseSchema },
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
        response: { 200: z.object({ revoked: z.boolean() }) },
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
