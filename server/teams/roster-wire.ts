import { z } from "zod";
import type { TrackCourse } from "../tracks/paged-tracks";
import type { TeamRoster } from "./team-roster";

/**
 * Allowlisted serializers of the roster (tracks, athletes, teams). No owner,
 * account id, email, weight, subscription or licence field exists here.
 */
export const ZTrack = z.object({
  id: z.number().int(),
  name: z.string(),
  location: z.string().describe("free text: lake, river, city"),
  is_public: z.boolean().describe("an official course every account can use"),
  start: z
    .object({ latitude: z.number(), longitude: z.number() })
    .nullable()
    .describe("start line position, WGS84 degrees; null when the track has none"),
});

export function serializeTrack(track: TrackCourse): z.output<typeof ZTrack> {
  return {
    id: track.id,
    name: track.name,
    location: track.location,
    is_public: track.isPublic,
    start: track.latitude !== null && track.longitude !== null ? { latitude: track.latitude, longitude: track.longitude } : null,
  };
}

export const ZRosterAthlete = z.object({
  id: z.number().int().describe("the athlete_id of GET /sessions"),
  name: z.string(),
  surname: z.string(),
  date_of_birth: z.string().nullable().describe("YYYY-MM-DD"),
  modality: z.string().describe("discipline as the club names it, e.g. Kayak"),
});

export function serializeRosterAthlete(athlete: {
  id: number;
  name: string;
  surname: string;
  dateOfBirth: string | null;
  modality: string;
}): z.output<typeof ZRosterAthlete> {
  return { id: athlete.id, name: athlete.name, surname: athlete.surname, date_of_birth: athlete.dateOfBirth, modality: athlete.modality };
}

export const ZTeamListItem = z.object({ id: z.number().int(), name: z.string() });

export const serializeTeamListItem = (team: { id: number; name: string }): z.output<typeof ZTeamListItem> => ({
  id: team.id,
  name: team.name,
});

export const ZTeam = ZTeamListItem.extend({
  coaches: z.array(z.object({ name: z.string().describe("display name") })).describe("every coach of the team, by display name"),
  athletes: z
    .array(z.object({ id: z.number().int(), name: z.string(), surname: z.string() }))
    .describe("the team's athletes the subject may see (their own record, those they manage or coach); others are left out"),
});

export function serializeTeam(team: TeamRoster): z.output<typeof ZTeam> {
  return {
    id: team.id,
    name: team.name,
    coaches: team.coaches.map((c) => ({ name: c.name })),
    athletes: team.athletes.map((a) => ({ id: a.id, name: a.name, surname: a.surname })),
  };
}
