// One file for the quorum's whole transaction flow (propose, approve, complete, perform), which
// shares its lock, its refusals and its state checks; longer than 300 lines for that reason.
import { randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import {
  signerActivities as activityTypes,
  type SignerCallParameters,
} from '@quicklinks/protocol/signer-activities'
import {
  maxMultiOwnerMembers,
  type memberApprovalSchema,
  multiOwnerMembersParametersSchema,
  multiOwnerRootQuorumParametersSchema,
} from '@quicklinks/protocol/signer-call-schemas'
import { eq } from 'drizzle-orm'
import { type Address, getAddress, type Hex, isAddress, isAddressEqual, recoverMessageAddress } from 'viem'
import type { z } from 'zod/mini'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerActivity, signerActivities } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { SignerAccount } from '../accounts/find-account.ts'
import { getAccountOrThrow } from '../accounts/get-account-or-throw.ts'
import {
  describeState,
  type MultiOwnerState,
  readMultiOwnerState,
} from '../multi-owner-quorum/multi-owner-state.ts'
import type { VerifiedStampedRequest } from '../stamps/verify-stamped-request.ts'
import {
  planRawPayloadSignature,
  type SignRawPayloadParameters,
  signWithPlan,
} from '../wallets/sign-raw-payload.ts'
import { useWalletSecret } from '../wallets/use-wallet-secret.ts'
import { approvalLifetimeMs, buildApprovalMessage, type Consensus, hashRequest } from './approval-message.ts'
import { encodeOwnerUpdate, getMultiOwnerAccountAddress } from './multi-owner-account.ts'
import {
  checkPayloadSignature,
  combineSignatures,
  getQuorumPayloadHash,
  type MemberSignature,
} from './multi-owner-signatures.ts'

// The parameter schemas are the signer-call table's (@quicklinks/protocol/signer-call-schemas).
type MultiOwnerSignRawPayloadParameters = SignerCallParameters<'multiOwnerSignRawPayload'>

/** A member's approval of one activity, as memberApprovalSchema parses it. */
export type MemberApproval = z.output<typeof memberApprovalSchema>

/** The four activities a root quorum decides, and what each does once approved. */
type QuorumType =
  | typeof activityTypes.multiOwnerAdd.type
  | typeof activityTypes.multiOwnerDelete.type
  | typeof activityTypes.multiOwnerUpdateRootQuorum.type
  | typeof activityTypes.multiOwnerSignRawPayload.type

const notEnabledMessage = 'Multi-owner accounts are not enabled on this server.'

/** Refuses every multi-owner call unless MULTI_OWNER_ENABLED is on (FORBIDDEN, 403). */
export function assertMultiOwnerEnabled(context: SignerContext): void {
  if (context.config.multiOwnerEnabled !== true) {
    throw new AppError('FORBIDDEN', {
      userMessage: notEnabledMessage,
      details: { reason: 'MULTI_OWNER_DISABLED' },
    })
  }
}

function lockKey(organizationId: string): string {
  return `multi-owner:${organizationId}`
}

function conflict(userMessage: string, reason: string): AppError {
  return new AppError('CONFLICT', { userMessage, details: { reason } })
}

function invalid(field: string, problem: string): AppError {
  return new AppError('VALIDATION_FAILED', { userMessage: `${field}: ${problem}`, field })
}

function noMultiOwner(): AppError {
  return new AppError('NOT_FOUND', {
    userMessage: 'This organization has no multi-owner account. Create it first.',
  })
}

function assertDistinct(addresses: readonly Address[], field: string): void {
  if (new Set(addresses).size !== addresses.length) throw invalid(field, 'must not repeat an address')
}

/**
 * `multi-owner-create`: makes the organization multi-owner with its wallet's EVM address as the
 * first member, then the given members, and a root quorum threshold (default 1, at most the
 * member count). Completes at once (the session acts alone: nothing is shared yet) with the
 * counterfactual QuickLinksMultiOwnerAccount of those members.
 *
 * Fails with VALIDATION_FAILED (422) for a repeated member or a threshold above the member count,
 * CONFLICT (409) when the organization already has one.
 */
export async function createMultiOwner(
  context: SignerContext,
  verified: VerifiedStampedRequest<SignerCallParameters<'multiOwnerCreate'>>,
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const walletMember = getAddress(account.evmAddress)
  const members = [
    walletMember,
    ...verified.parameters.members
      .map(({ evmSignerAddress }) => evmSignerAddress)
      .filter((address) => address !== walletMember),
  ]
  assertDistinct(members, 'parameters.members')
  const rootQuorumThreshold = verified.parameters.rootQuorumThreshold ?? 1
  if (rootQuorumThreshold > members.length) {
    throw invalid('parameters.rootQuorumThreshold', `must be at most the ${members.length} members`)
  }
  const state: MultiOwnerState = {
    accountAddress: getMultiOwnerAccountAddress(members, rootQuorumThreshold),
    walletMember,
    members,
    rootQuorumThreshold,
    version: 1,
  }
  return context.db.transaction(async (tx) => {
    await lockForTransaction(tx, lockKey(verified.organizationId))
    if ((await readMultiOwnerState(tx, verified.organizationId)) !== undefined) {
      throw conflict('This organization already has a multi-owner account.', 'MULTI_OWNER_EXISTS')
    }
    const createdAt = new Date(context.now())
    const [row] = await tx
      .insert(signerActivities)
      .values({
        id: randomUUID(),
        organizationId: verified.organizationId,
        userId: verified.userId,
        type: activityTypes.multiOwnerCreate.type,
        status: 'ACTIVITY_STATUS_COMPLETED',
        request: verified.parameters,
        result: { multiOwner: state, ...describeState(state) },
        bodyHash: verified.bodyHash,
        createdAt,
        updatedAt: createdAt,
      })
      .returning()
    if (row === undefined) throw new Error('The multi-owner creation was not recorded')
    return row
  })
}

/**
 * Asks for a quorum activity (`multi-owner-prepare-add`, `-prepare-delete`,
 * `-update-root-quorum`, `-sign-raw-payload`): checks the request against the current members,
 * records it as CONSENSUS_NEEDED with the text members sign (`result.consensus`), and, when
 * `walletApproves`, counts the session's stamp as the wallet member's approval (the session
 * already signs with that key). An activity whose approvals reach the threshold runs at once.
 *
 * Fails with NOT_FOUND (404) before `multi-owner-create`, VALIDATION_FAILED (422) for a request
 * the members' state does not allow (an existing member, a non-member, the wallet member, a
 * threshold above the members left).
 */
export async function proposeQuorumActivity(
  context: SignerContext,
  verified: VerifiedStampedRequest<Record<string, unknown>>,
  input: { type: QuorumType; walletApproves: boolean },
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const request = verified.parameters
  return context.db.transaction(async (tx) => {
    await lockForTransaction(tx, lockKey(verified.organizationId))
    const state = await readMultiOwnerState(tx, verified.organizationId)
    if (state === undefined) throw noMultiOwner()
    const required = checkRequest(state, account, input.type, request)
    const id = randomUUID()
    const createdAt = new Date(context.now())
    const expiresAt = new Date(context.now() + approvalLifetimeMs).toISOString()
    const requestHash = hashRequest(request)
    const consensus: Consensus = {
      version: state.version,
      requestHash,
      expiresAt,
      required,
      approvedBy: input.walletApproves ? [state.walletMember] : [],
      approvalMessage: buildApprovalMessage({
        organizationId: verified.organizationId,
        activityId: id,
        type: input.type,
        requestHash,
        version: state.version,
        expiresAt,
      }),
    }
    const [row] = await tx
      .insert(signerActivities)
      .values({
        id,
        organizationId: verified.organizationId,
        userId: verified.userId,
        type: input.type,
        status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
        request,
        result: { consensus },
        bodyHash: verified.bodyHash,
        createdAt,
        updatedAt: createdAt,
      })
      .returning()
    if (row === undefined) throw new Error('The quorum activity was not recorded')
    return completeIfApproved(context, tx, row, state, account)
  })
}

/**
 * `multi-owner-add` / `-delete` with a session stamp: the wallet member's approval of an activity
 * `prepare-add` / `prepare-delete` recorded. Runs it when that reaches the threshold.
 *
 * Fails with NOT_FOUND (404) for an activity of another organization or another type, CONFLICT
 * (409) when it no longer waits for approvals (completed, failed, expired) or the wallet member
 * already approved it.
 */
export async function approveWithSession(
  context: SignerContext,
  verified: VerifiedStampedRequest<{ activityId: string }>,
  type: QuorumType,
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const outcome = await context.db.transaction(async (tx) => {
    await lockForTransaction(tx, lockKey(verified.organizationId))
    const activity = await findQuorumActivity(tx, verified.parameters.activityId, type)
    if (activity === undefined || activity.organizationId !== verified.organizationId) {
      throw new AppError('NOT_FOUND', { userMessage: 'No activity with that id in this organization.' })
    }
    const state = await readMultiOwnerState(tx, verified.organizationId)
    if (state === undefined) throw noMultiOwner()
    return addApproval(context, tx, activity, state, state.walletMember, account)
  })
  if (outcome.refusal !== undefined) throw outcome.refusal
  return outcome.activity
}

/**
 * A member's own approval (no session: the EIP-191 signature over the activity's approval message
 * is the proof). Runs the activity when the approvals reach the threshold.
 *
 * Fails with NOT_FOUND (404) for an unknown activity or one of another type, FORBIDDEN (403) when
 * the signature is not `evmSignerAddress`'s over this activity's message (another activity's, a
 * changed request) or the signer is not a member, CONFLICT (409) when the member already approved
 * or the activity no longer waits (completed, failed, expired: an expired one is failed then).
 */
export async function approveWithMemberSignature(
  context: SignerContext,
  approval: MemberApproval,
  type: QuorumType,
): Promise<SignerActivity> {
  const outcome = await context.db.transaction(async (tx) => {
    const located = await findQuorumActivity(tx, approval.activityId, type)
    if (located === undefined) {
      throw new AppError('NOT_FOUND', { userMessage: 'No activity with that id.' })
    }
    await lockForTransaction(tx, lockKey(located.organizationId))
    const activity = await findQuorumActivity(tx, approval.activityId, type)
    if (activity === undefined) throw new Error(`Activity ${approval.activityId} vanished`)
    const consensus = readConsensus(activity)
    const signer =
      consensus === undefined
        ? undefined
        : await recoverMessageAddress({
            message: consensus.approvalMessage,
            signature: approval.signature as Hex,
          }).catch(() => undefined)
    if (
      consensus !== undefined &&
      (signer === undefined || !isAddressEqual(signer, approval.evmSignerAddress))
    ) {
      throw new AppError('FORBIDDEN', {
        userMessage: `This approval is not signed by ${approval.evmSignerAddress} for this activity.`,
        details: { reason: 'APPROVAL_SIGNATURE_INVALID' },
      })
    }
    const state = await readMultiOwnerState(tx, activity.organizationId)
    if (state === undefined) throw noMultiOwner()
    const account = await getAccountOrThrow(tx, activity.userId)
    // Approving a signature means signing it too: the member's share of the k signatures.
    const payloadSignature =
      consensus !== undefined && type === activityTypes.multiOwnerSignRawPayload.type
        ? await checkPayloadSignature(
            getQuorumPayloadHash(account, activity.request as SignRawPayloadParameters),
            approval.evmSignerAddress,
            approval.payloadSignature as Hex | undefined,
          )
        : undefined
    return addApproval(context, tx, activity, state, approval.evmSignerAddress, account, payloadSignature)
  })
  if (outcome.refusal !== undefined) throw outcome.refusal
  return outcome.activity
}

async function findQuorumActivity(
  db: SignerDatabase,
  activityId: string,
  type: QuorumType,
): Promise<SignerActivity | undefined> {
  const [row] = await db.select().from(signerActivities).where(eq(signerActivities.id, activityId))
  return row?.type === type ? row : undefined
}

function readConsensus(activity: SignerActivity): Consensus | undefined {
  const consensus = activity.result?.consensus
  return typeof consensus === 'object' && consensus !== null ? (consensus as Consensus) : undefined
}

/**
 * Records `member`'s approval of a waiting activity and runs it once the approvals reach the
 * threshold. A refusal that must be kept (an expired activity, now FAILED) is returned beside the
 * row so the transaction commits before it is thrown.
 */
async function addApproval(
  context: SignerContext,
  tx: SignerDatabase,
  activity: SignerActivity,
  state: MultiOwnerState,
  member: Address,
  account: SignerAccount,
  payloadSignature?: Hex,
): Promise<{ activity: SignerActivity; refusal?: AppError }> {
  const consensus = readConsensus(activity)
  if (activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED' || consensus === undefined) {
    throw conflict('This activity no longer waits for approvals.', 'NOT_AWAITING_CONSENSUS')
  }
  if (context.now() > Date.parse(consensus.expiresAt)) {
    const failed = await finish(context, tx, activity, 'ACTIVITY_STATUS_FAILED', {
      consensus,
      error: 'This activity expired before its quorum approved it.',
    })
    return {
      activity: failed,
      refusal: conflict('This activity expired before its quorum approved it. Ask again.', 'EXPIRED'),
    }
  }
  if (!state.members.includes(member)) {
    throw new AppError('FORBIDDEN', {
      userMessage: `${member} is not a member of this organization.`,
      details: { reason: 'NOT_A_MEMBER' },
    })
  }
  if (consensus.approvedBy.includes(member)) {
    throw conflict(`${member} already approved this activity.`, 'ALREADY_APPROVED')
  }
  const approved: Consensus = {
    ...consensus,
    approvedBy: [...consensus.approvedBy, member],
    ...(payloadSignature === undefined
      ? {}
      : {
          payloadSignatures: [
            ...(consensus.payloadSignatures ?? []),
            { evmSignerAddress: member, signature: payloadSignature },
          ],
        }),
  }
  const [updated] = await tx
    .update(signerActivities)
    .set({ result: { consensus: approved }, updatedAt: new Date(context.now()) })
    .where(eq(signerActivities.id, activity.id))
    .returning()
  if (updated === undefined) throw new Error(`Activity ${activity.id} vanished`)
  return { activity: await completeIfApproved(context, tx, updated, state, account) }
}

/**
 * Runs a waiting activity whose approvals reach its threshold: FAILED when the members changed
 * since it was asked (its approvals were given under another quorum), else COMPLETED with what
 * it did. Leaves any other activity as it is.
 */
async function completeIfApproved(
  context: SignerContext,
  tx: SignerDatabase,
  activity: SignerActivity,
  state: MultiOwnerState,
  account: SignerAccount,
): Promise<SignerActivity> {
  const consensus = readConsensus(activity)
  if (consensus === undefined || consensus.approvedBy.length < consensus.required) return activity
  if (consensus.version !== state.version) {
    return finish(context, tx, activity, 'ACTIVITY_STATUS_FAILED', {
      consensus,
      error: 'The members or the quorum changed while this activity waited. Ask again.',
    })
  }
  const result = await perform(tx, context, activity, state, account, consensus)
  return finish(context, tx, activity, 'ACTIVITY_STATUS_COMPLETED', {
    ...result,
    approvedBy: consensus.approvedBy.map((evmSignerAddress) => ({ evmSignerAddress })),
  })
}

async function finish(
  context: SignerContext,
  tx: SignerDatabase,
  activity: SignerActivity,
  status: 'ACTIVITY_STATUS_COMPLETED' | 'ACTIVITY_STATUS_FAILED',
  result: Record<string, unknown>,
): Promise<SignerActivity> {
  const [row] = await tx
    .update(signerActivities)
    .set({ status, result, updatedAt: new Date(context.now()) })
    .where(eq(signerActivities.id, activity.id))
    .returning()
  if (row === undefined) throw new Error(`Activity ${activity.id} vanished`)
  return row
}

/** What an approved activity does; the state-changing ones answer the new state and the owner update. */
async function perform(
  tx: SignerDatabase,
  context: SignerContext,
  activity: SignerActivity,
  state: MultiOwnerState,
  account: SignerAccount,
  consensus: Consensus,
): Promise<Record<string, unknown>> {
  const type = activity.type as QuorumType
  if (type === activityTypes.multiOwnerSignRawPayload.type) {
    // The k signatures the account needs: the wallet key's (made here, now that the quorum
    // approved) and each approving member's own, by increasing signer address.
    const plan = planRawPayloadSignature(account, activity.request as SignRawPayloadParameters)
    const shares: MemberSignature[] = [...(consensus.payloadSignatures ?? [])]
    if (consensus.approvedBy.includes(state.walletMember)) {
      shares.push({
        evmSignerAddress: state.walletMember,
        signature: await useWalletSecret(
          tx,
          { masterKey: context.keyring.masterKey, userId: account.userId },
          (secret) => signWithPlan(secret, plan),
        ),
      })
    }
    return combineSignatures(shares)
  }
  const change = planChange(state, type, activity.request)
  const next: MultiOwnerState = { ...state, ...change.state, version: state.version + 1 }
  return {
    multiOwner: next,
    ...describeState(next),
    ...(change.owners === undefined
      ? {}
      : {
          ownerUpdate: {
            added: change.owners.added,
            removed: change.owners.removed,
            threshold: next.rootQuorumThreshold,
            /** The account's user operation call data: execute(account, 0, updateOwners(added, removed, threshold)). */
            callData: encodeOwnerUpdate(state.accountAddress, {
              ...change.owners,
              threshold: next.rootQuorumThreshold,
            }),
          },
        }),
  }
}

/**
 * Checks a quorum request against the current state before it is recorded (422 naming the field)
 * and answers how many approvals it needs.
 */
function checkRequest(
  state: MultiOwnerState,
  account: SignerAccount,
  type: QuorumType,
  request: Record<string, unknown>,
): number {
  if (type === activityTypes.multiOwnerSignRawPayload.type) {
    const parameters = request as MultiOwnerSignRawPayloadParameters
    if (!isAddress(parameters.signWith) || !isAddressEqual(parameters.signWith, state.walletMember)) {
      throw invalid('parameters.signWith', "must be the organization's member address")
    }
    planRawPayloadSignature(account, parameters)
    const required = Math.max(state.rootQuorumThreshold, parameters.requiredApprovals ?? 0)
    if (required > state.members.length) {
      throw invalid('parameters.requiredApprovals', `must be at most the ${state.members.length} members`)
    }
    return required
  }
  planChange(state, type, request)
  return state.rootQuorumThreshold
}

type PlannedChange = {
  state: Partial<Pick<MultiOwnerState, 'members' | 'rootQuorumThreshold'>>
  owners?: { added: Address[]; removed: Address[] }
}

/** The members' change a request asks for, checked against `state`. Pure; throws 422. */
function planChange(
  state: MultiOwnerState,
  type: QuorumType,
  request: Record<string, unknown>,
): PlannedChange {
  if (type === activityTypes.multiOwnerUpdateRootQuorum.type) {
    const { rootQuorumThreshold } = multiOwnerRootQuorumParametersSchema.parse(request)
    if (rootQuorumThreshold > state.members.length) {
      throw invalid('parameters.rootQuorumThreshold', `must be at most the ${state.members.length} members`)
    }
    return { state: { rootQuorumThreshold }, owners: { added: [], removed: [] } }
  }
  const members = multiOwnerMembersParametersSchema.parse(request).members.map((m) => m.evmSignerAddress)
  assertDistinct(members, 'parameters.members')
  if (type === activityTypes.multiOwnerAdd.type) {
    const existing = members.find((address) => state.members.includes(address))
    if (existing !== undefined) throw invalid('parameters.members', `${existing} is already a member`)
    if (state.members.length + members.length > maxMultiOwnerMembers) {
      throw invalid('parameters.members', `an organization has at most ${maxMultiOwnerMembers} members`)
    }
    return { state: { members: [...state.members, ...members] }, owners: { added: members, removed: [] } }
  }
  const outsider = members.find((address) => !state.members.includes(address))
  if (outsider !== undefined) throw invalid('parameters.members', `${outsider} is not a member`)
  if (members.includes(state.walletMember)) {
    throw invalid(
      'parameters.members',
      "the organization's wallet stays a member: it signs the account's operations",
    )
  }
  const remaining = state.members.filter((address) => !members.includes(address))
  if (remaining.length < state.rootQuorumThreshold) {
    throw invalid(
      'parameters.members',
      `the root quorum needs ${state.rootQuorumThreshold} members; lower it before removing these`,
    )
  }
  return { state: { members: remaining }, owners: { added: [], removed: members } }
}
