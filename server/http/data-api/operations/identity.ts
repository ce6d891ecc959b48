import { getGrant, revokeApplicationAccess } from "../../../auth/oauth/grants";
import { SURFACES } from "../../../auth/oauth/scopes";
import { getOwnAthleteProfile, getSubjectIdentity } from "../../../identity/identity";
import { defineOperation } from "../define-operation";
import { dataApiNotFound } from "../errors";
import {
  serializeAthleteProfile,
  serializeAuthorization,
  serializeMe,
  ZAthleteProfile,
  ZAuthorization,
  ZMe,
} from "../../../auth/oauth/identity-wire";

/** Identity (data-api.md "Identity and health check"); GET /health is app/api/v1/health/route.ts. */
export const getMe = defineOperation({
  method: "get",
  path: "/me",
  operationId: "get_me",
  summary: "The authorized subject: pairwise identifier, name with profile, email with email",
  tag: "Identity",
  scopes: ["openid"],
  surfaces: SURFACES,
  response: ZMe,
  handler: async (ctx) => ({ data: serializeMe(await getSubjectIdentity(ctx.db, ctx.subjectId, ctx.applicationId), ctx.scopes) }),
});

export const getAuthorization = defineOperation({
  method: "get",
  path: "/authorization",
  operationId: "get_authorization",
  summary: "This application's current consent and the token's effective scopes",
  tag: "Identity",
  scopes: ["openid"],
  surfaces: SURFACES,
  response: ZAuthorization,
  handler: async (ctx) => {
    const grant = await getGrant(ctx.db, ctx.grantId);
    if (!grant) throw dataApiNotFound();
    return { data: serializeAuthorization(grant, ctx.scopes) };
  },
});

export const deleteAuthorization = defineOperation({
  method: "delete",
  path: "/authorization",
  operationId: "revoke_authorization",
  summary: "Revokes this application's authorization: every token of the grant fails from the next call; the person's data stays",
  tag: "Identity",
  scopes: ["openid"],
  surfaces: SURFACES,
  response: null,
  successStatus: 204,
  handler: async (ctx) => {
    // Every grant the person gave this application, not only this token's: any of its tokens fails from now on.
    await revokeApplicationAccess(ctx.db, ctx.subjectId, ctx.applicationId, ctx.now);
    return { status: 204 };
  },
});

export const getAthlete = defineOperation({
  method: "get",
  path: "/athlete",
  operationId: "get_athlete_profile",
  summary: "The subject's own athlete profile (404 when the account has no athlete record)",
  tag: "Identity",
  scopes: ["athlete:read"],
  surfaces: SURFACES,
  response: ZAthleteProfile,
  handler: async (ctx) => ({ data: serializeAthleteProfile(await getOwnAthleteProfile(ctx.db, ctx.subjectId)) }),
});

export const identityOperations = [getMe, getAuthorization, deleteAuthorization, getAthlete];
