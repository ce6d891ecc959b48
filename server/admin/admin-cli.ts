import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { ZodError } from "zod";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { AppError } from "../errors";
import { createKeyPair } from "../keys/key-pairs";
import { createUser, ROLE_NAMES, type RoleName } from "../users/users";

/**
 * The operator command line: what automation needs without a browser.
 * Each command prints one JSON object on stdout; failures print
 * {"error": …} on stderr and exit with status 2.
 */
export class UsageError extends Error {}

const USAGE = `usage:
  admin user create --email E --password P [--name N] [--role ${ROLE_NAMES.join("|")}] [--unlimited-externals]
  admin key create --email E --name N`;

export async function runAdminCommand(db: Db, argv: string[]): Promise<unknown> {
  const [area, action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      "unlimited-externals": { type: "boolean" },
    },
    strict: true,
  });
  if (area === "user" && action === "create") {
    if (!values.email || !values.password) throw new UsageError(USAGE);
    const role = (values.role ?? "coach") as RoleName;
    if (!ROLE_NAMES.includes(role)) throw new UsageError(`--role must be one of ${ROLE_NAMES.join(", ")}`);
    const user = await createUser(
      db,
      { email: values.email, password: values.password, name: values.name ?? values.email.split("@")[0] },
      { role, unlimitedExternals: values["unlimited-externals"] ?? false },
    );
    return { id: user.id, email: user.email, name: user.name, role: user.role, unlimited_externals: user.unlimitedExternals };
  }
  if (area === "key" && action === "create") {
    if (!values.email || !values.name) throw new UsageError(USAGE);
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, values.email.trim().toLowerCase()));
    if (!owner) throw new AppError("not_found", `no account with email ${values.email}`);
    const { keyPair, secretKey } = await createKeyPair(db, owner.id, { name: values.name });
    return { id: keyPair.id, name: keyPair.name, public_key: keyPair.publicKey, secret_key: secretKey };
  }
  throw new UsageError(USAGE);
}

export function describeAdminError(error: unknown): string {
  if (error instanceof ZodError) return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  if (error instanceof Error) return error.message;
  return String(error);
}
