"use client";

import Link from "next/link";
import { Field } from "@/app/_components/form";

export type Seat = { kind: "internal"; athleteId: number | "" } | { kind: "external"; name: string; surname: string; weight: string };

export interface CrewAthlete {
  id: number;
  name: string;
  /** A subscription runs today or later: a session may name them. */
  active: boolean;
  /** Last day of the subscription, if one was ever set. */
  until: string | null;
  /** The viewer manages the record and can renew the subscription. */
  editable: boolean;
}

/**
 * The crew in boat order (docs/web-app.md "Upload"), for a session and for a
 * training. A session names only athletes with an active subscription, or
 * external paddlers; a training names the club's athletes, any seat may stay
 * "Not given", and needs no subscription.
 */
export function CrewPicker({
  vesselType,
  seats,
  athletes,
  errors,
  onSeat,
  kind,
}: {
  vesselType: string;
  seats: Seat[];
  athletes: CrewAthlete[];
  errors: Record<string, string[]>;
  onSeat: (index: number, seat: Seat) => void;
  kind: "session" | "training";
}) {
  const session = kind === "session";
  const lapsed = session ? athletes.filter((a) => !a.active) : [];
  return (
    <fieldset>
      <legend>
        {seats.length > 1 ? `Crew of the ${vesselType}, from the bow` : `Paddler of the ${vesselType}`}
        {session ? "" : " (optional)"}
      </legend>
      {errors.athletes ? (
        <p className="field-error" role="alert">
          {errors.athletes.join(" ")}
        </p>
      ) : null}
      {!session && seats.length > 1 ? (
        <p className="hint">Seat 1 wears the heart-rate strap: name it whenever you name another seat.</p>
      ) : null}
      {seats.map((seat, i) => (
        <div className="row" key={i}>
          <div className="field">
            <label htmlFor={`seat-${i}`}>Seat {i + 1}</label>
            <select
              id={`seat-${i}`}
              aria-invalid={errors[`athletes[${i}]`] ? true : undefined}
              aria-describedby={
                [errors[`athletes[${i}]`] ? `seat-${i}-error` : null, lapsed.length ? "subscription-note" : null]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              value={seat.kind === "internal" ? seat.athleteId : "external"}
              onChange={(e) =>
                onSeat(
                  i,
                  e.target.value === "external"
                    ? { kind: "external", name: "", surname: "", weight: "" }
                    : { kind: "internal", athleteId: e.target.value === "" ? "" : Number(e.target.value) },
                )
              }
            >
              <option value="">{session ? "Choose…" : "Not given"}</option>
              {athletes.map((a) => (
                <option key={a.id} value={a.id} disabled={session && !a.active}>
                  {a.name}
                  {session && !a.active ? " (no active subscription — see below)" : ""}
                </option>
              ))}
              {session ? <option value="external">Someone else (external athlete)</option> : null}
            </select>
            {errors[`athletes[${i}]`] ? (
              <p className="field-error" id={`seat-${i}-error`}>
                {errors[`athletes[${i}]`].join(" ")}
              </p>
            ) : null}
          </div>
          {seat.kind === "external" ? (
            <>
              <Field
                label={`Seat ${i + 1} name`}
                name={`seat-${i}-name`}
                value={seat.name}
                onChange={(e) => onSeat(i, { ...seat, name: e.target.value })}
              />
              <Field
                label={`Seat ${i + 1} surname`}
                name={`seat-${i}-surname`}
                value={seat.surname}
                onChange={(e) => onSeat(i, { ...seat, surname: e.target.value })}
              />
              <Field
                label={`Seat ${i + 1} weight (kg)`}
                name={`seat-${i}-weight`}
                inputMode="decimal"
                value={seat.weight}
                onChange={(e) => onSeat(i, { ...seat, weight: e.target.value })}
              />
            </>
          ) : null}
        </div>
      ))}
      {lapsed.length ? <SubscriptionNote lapsed={lapsed} /> : null}
    </fieldset>
  );
}

/**
 * Why an athlete cannot be chosen, and what to do: a session counts for an
 * athlete only while their subscription runs ("Subscription active until" on
 * the athlete's record, kept by whoever manages it).
 */
function SubscriptionNote({ lapsed }: { lapsed: CrewAthlete[] }) {
  const mine = lapsed.filter((a) => a.editable);
  const others = lapsed.filter((a) => !a.editable);
  return (
    <div className="notice warning" role="note" id="subscription-note" data-testid="subscription-note">
      <p>
        <strong>No active subscription:</strong> a session can name an athlete only while their subscription runs (today or later). Greyed
        out: {lapsed.map((a) => `${a.name} (${a.until ? `ended ${a.until}` : "never set"})`).join(", ")}.
      </p>
      {mine.length ? (
        <p>
          You manage {mine.length === 1 ? "this athlete" : "these athletes"}: open{" "}
          {mine.map((a, i) => (
            <span key={a.id}>
              {i ? ", " : ""}
              <Link href={`/athletes/${a.id}`}>{a.name}</Link>
            </span>
          ))}
          , then “Edit profile” and set “Subscription active until” to the date it is paid to.
        </p>
      ) : null}
      {others.length ? (
        <p>
          {others.map((a) => a.name).join(", ")}: ask the coach who manages {others.length === 1 ? "this athlete" : "them"} to renew the
          subscription.
        </p>
      ) : null}
      <p className="hint">Trainings need no subscription.</p>
    </div>
  );
}
