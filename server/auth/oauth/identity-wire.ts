import { z } from "zod";
import type { GrantView } from "./grants";

/** Allowlisted serializers of identity, authorization and the athlete profile. */
export const ZMe = z.object({
  sub: z.string().describe("pairwise subject: stable for this application, different for every other"),
  name: z.string().optional().describe("display name, with the profile scope"),
  email: z.string().optional().describe("email address, with the email scope (not verified by this service)"),
  sandbox: z
    .literal(true)
    .optional()
    .describe(
      "present, and true, only when the subject is a sandbox person: a test account an application's owner made in the developer portal, holding simulated data, never a real paddler. An additive extension; absent for everyone else",
    ),
});

export function serializeMe(
  identity: { sub: string; name: string; email: string; sandbox: boolean },
  scopes: ReadonlySet<string>,
): z.output<typeof ZMe> {
  return {
    sub: identity.sub,
    ...(scopes.has("profile") ? { name: identity.name } : {}),
    ...(scopes.has("email") ? { email: identity.email } : {}),
    // Whatever the scopes: an integrator must always be able to tell test data from a person's.
    ...(identity.sandbox ? { sandbox: true as const } : {}),
  };
}

export const ZAuthorization = z.object({
  application: z.object({ client_id: z.string(), name: z.string(), surface: z.enum(["data", "partner", "session"]) }),
  scopes: z.array(z.string()).describe("effective scopes of this token"),
  granted_scopes: z.array(z.string()).describe("scopes the person consented to"),
  declined_scopes: z.array(z.string()).describe("optional scopes the person left unticked"),
  granted_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string(),
});

export function serializeAuthorization(grant: GrantView, tokenScopes: ReadonlySet<string>): z.output<typeof ZAuthorization> {
  return {
    application: { client_id: grant.clientId, name: grant.applicationName, surface: grant.surface },
    scopes: [...tokenScopes],
    granted_scopes: [...grant.scopes],
    declined_scopes: [...grant.declinedScopes],
    granted_at: grant.createdAt.toISOString(),
    updated_at: grant.updatedAt.toISOString(),
    expires_at: grant.expiresAt.toISOString(),
  };
}

export const ZAthleteProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  date_of_birth: z.string().nullable().describe("YYYY-MM-DD"),
  modality: z.string().describe("discipline as the club names it, e.g. Kayak"),
});

export function serializeAthleteProfile(row: {
  id: number;
  name: string;
  surname: string;
  dateOfBirth: string | null;
  modality: string;
}): z.output<typeof ZAthleteProfile> {
  return { id: row.id, name: row.name, surname: row.surname, date_of_birth: row.dateOfBirth, modality: row.modality };
}
