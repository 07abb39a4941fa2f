import type { ServiceContext } from "../../service/context";
import { ServiceError } from "../../service/errors";
import { readJsonObject } from "../http/body";

export const bodyOf = (ctx: ServiceContext, request: Request) => readJsonObject(request, ctx.config.apiBodyLimitBytes);

/** A positive integer from a path or query value, or a clear refusal. */
export function idParam(value: unknown, name = "id"): number {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ServiceError(`${name} must be a positive integer`, 400);
  return n;
}

/** Paging of the dialect: p (1-based) and page_size (fallbacks ps, size), default 10, at most 100. */
export function pagingOf(query: Record<string, string | undefined>): {
  page: number;
  pageSize: number;
  offset: number;
} {
  const page = Math.max(1, Math.floor(Number(query.p ?? 1)) || 1);
  const requested = Math.floor(Number(query.page_size ?? query.ps ?? query.size ?? 10)) || 10;
  const pageSize = Math.min(100, Math.max(1, requested));
  return { page, pageSize, offset: (page - 1) * pageSize };
}
