// Prints the URL of a fresh database for the Playwright stage, next to the one at
// DATABASE_URL (same server, name + "_e2e"), so the browser tests never read rows
// the unit and integration tests left behind. Prints nothing without DATABASE_URL
// (the stage then runs on a fresh PGlite folder).
import postgres from "postgres";

const base = process.env.DATABASE_URL;
if (base) {
  const url = new URL(base);
  const name = `${url.pathname.slice(1) || "postgres"}_e2e`;
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const sql = postgres(base, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.unsafe(`create database "${name}"`);
  await sql.end();
  url.pathname = `/${name}`;
  console.log(url.toString());
}
