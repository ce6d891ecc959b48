import Link from "next/link";
import { BOAT_CLASSES } from "@/server/workouts/template";
import type { TrainingFilters } from "@/server/trainings/training-view";

const KEYS = ["athlete", "boat", "template", "from", "to"] as const;
type Key = (typeof KEYS)[number];
export type FilterValues = Partial<Record<Key, string>>;

const ID = /^[1-9]\d{0,8}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The list's filters from the address; a value that does not parse is dropped, as in the sessions log. */
export function parseTrainingFilters(params: Record<string, string | string[] | undefined>): {
  values: FilterValues;
  query: TrainingFilters;
  active: number;
} {
  const one = (k: Key) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
  const athlete = one("athlete");
  const boat = one("boat");
  const template = one("template");
  const from = one("from");
  const to = one("to");
  const values: FilterValues = {
    athlete: athlete && ID.test(athlete) ? athlete : undefined,
    boat: boat && (BOAT_CLASSES as readonly string[]).includes(boat) ? boat : undefined,
    template: template && ID.test(template) ? template : undefined,
    from: from && DAY.test(from) && !Number.isNaN(Date.parse(from)) ? from : undefined,
    to: to && DAY.test(to) && !Number.isNaN(Date.parse(to)) ? to : undefined,
  };
  return {
    values,
    query: {
      athleteId: values.athlete ? Number(values.athlete) : undefined,
      boatClass: values.boat,
      templateId: values.template ? Number(values.template) : undefined,
      from: values.from,
      to: values.to,
    },
    active: KEYS.filter((k) => values[k] !== undefined).length,
  };
}

export function trainingsHref(values: FilterValues, after?: string): string {
  const search = new URLSearchParams();
  for (const k of KEYS) if (values[k]) search.set(k, values[k]!);
  if (after) search.set("after", after);
  const q = search.toString();
  return q ? `/trainings?${q}` : "/trainings";
}

type Option = { id: string; label: string };

/** A GET form, so the filters live in the address (bookmarkable; the back button walks them). */
export function TrainingFiltersForm({ values, athletes, templates }: { values: FilterValues; athletes: Option[]; templates: Option[] }) {
  const select = (name: Key, label: string, options: Option[]) => (
    <div className="field">
      <label htmlFor={`trainings-${name}`}>{label}</label>
      <select id={`trainings-${name}`} name={name} defaultValue={values[name] ?? ""}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form method="get" action="/trainings" className="card log-filters" role="search" aria-label="Filter trainings">
      <div className="row">
        {select("athlete", "Athlete", athletes)}
        {select(
          "boat",
          "Boat class",
          BOAT_CLASSES.map((b) => ({ id: b, label: b })),
        )}
        {select("template", "Template", templates)}
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="trainings-from">From</label>
          <input id="trainings-from" name="from" type="date" defaultValue={values.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="trainings-to">To</label>
          <input id="trainings-to" name="to" type="date" defaultValue={values.to ?? ""} />
        </div>
      </div>
      <div className="row">
        <button type="submit">Show trainings</button>
        {KEYS.some((k) => values[k]) ? <Link href="/trainings">Clear filters</Link> : null}
      </div>
    </form>
  );
}
