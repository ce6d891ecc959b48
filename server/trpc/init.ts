import { initTRPC, TRPCError } from "@trpc/server";
import { z, ZodError } from "zod";
import { getCurrentUser } from "../auth/current-user";
import { getDb } from "../db/client";
import { AppError, type AppErrorCode } from "../errors";

export async function createTrpcContext() {
  return { db: getDb(), user: await getCurrentUser() };
}
type Context = Awaited<ReturnType<typeof createTrpcContext>>;

const TRPC_CODE: Record<AppErrorCode, TRPCError["code"]> = {
  invalid: "BAD_REQUEST",
  unauthenticated: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  too_many_requests: "TOO_MANY_REQUESTS",
  unprocessable: "UNPROCESSABLE_CONTENT",
  too_large: "PAYLOAD_TOO_LARGE",
};

/** Field messages for forms, from a zod failure or an AppError. */
function fieldErrorsOf(cause: unknown): Record<string, string[]> | null {
  if (cause instanceof ZodError) return z.flattenError(cause).fieldErrors as Record<string, string[]>;
  if (cause instanceof AppError) return cause.fieldErrors ?? null;
  return null;
}

const t = initTRPC.context<Context>().create({
  // The app's one error formatter: forms read data.fieldErrors.
  errorFormatter({ shape, error }) {
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      message: internal ? "Something went wrong. Please try again." : shape.message,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, fieldErrors: fieldErrorsOf(error.cause) },
    };
  },
});

/** Domain code throws AppError and zod errors; this maps them to tRPC codes in one place. */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
    }
    if (cause instanceof ZodError) {
      throw new TRPCError({ code: "BAD_REQUEST", message: "Please correct the highlighted fields.", cause });
    }
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapDomainErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in." });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export const operatorProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isOperator) throw new TRPCError({ code: "NOT_FOUND", message: "Not found." });
  return next({ ctx });
});
