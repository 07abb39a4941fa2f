import { Elysia, NotFoundError } from "elysia";
import { API_PATH } from "./http/not-found";
import { frameAncestorsDirective } from "./http/security-headers";

type Manifest = Record<string, string>;

/** The built console (src/gen is written by build.ts); from a fresh clone that was never built there is none. */
async function loadManifest(): Promise<Manifest | undefined> {
  try {
    // biome-ignore lint/suspicious/noTsIgnore: the module exists after a build and not before; an expect-error would fail once built
    // @ts-ignore -- the generated module is absent until `bun run build:console`
    return (await import("../gen/console-assets")).assets as Manifest;
  } catch {
    return undefined;
  }
}

const manifest = await loadManifest();

/** Admin-written texts are sanitized in the browser as well; this is the second fence. */
const CONTENT_SECURITY_POLICY_BASE = [
  "default-src 'self'",
  "script-src 'self' https://challenges.cloudflare.com https://telegram.org",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "frame-src https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
];

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Tollgate</title>
<p>The console is not built. Run <code>bun run build:console</code> (or start with <code>bun run start</code>), then reload.</p>`;

function fileResponse(path: string, contentSecurityPolicy: string): Response | undefined {
  const location = manifest?.[path];
  if (!location) return undefined;
  const file = Bun.file(location);
  const headers: Record<string, string> = {
    "content-type": file.type,
    "cache-control": path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  };
  if (path === "/index.html") headers["content-security-policy"] = contentSecurityPolicy;
  return new Response(file, { headers });
}

const looksLikeFile = (path: string) => /\.[a-z0-9]+$/i.test(path);

/**
 * The embedded console: hashed /assets/* cached for good, other files revalidated, and index.html for every
 * client route. Unknown paths of the APIs (/api, /v1, /v1beta, /pg, …) keep their own JSON 404.
 */
export const consoleAssets = (frameAncestors: string[]) => {
  const policy = [...CONTENT_SECURITY_POLICY_BASE, frameAncestorsDirective(frameAncestors)].join("; ");
  return new Elysia().get("/*", ({ path }) => {
    if (API_PATH.test(path)) throw new NotFoundError();
    const file = fileResponse(path, policy);
    if (file) return file;
    if (looksLikeFile(path)) throw new NotFoundError();
    if (!manifest)
      return new Response(NOT_BUILT, { status: 503, headers: { "content-type": "text/html; charset=utf-8" } });
    return fileResponse("/index.html", policy);
  });
};
