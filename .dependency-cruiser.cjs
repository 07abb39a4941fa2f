/**
 * The layer rules of DESIGN.md ("Layers", rules of the house), checked by `bun run layers` before the tests.
 * One rule per "never" arrow. An `import type` counts as an import: a layer that may not import another may
 * not borrow its types either (the service re-exports the row types it hands out, e.g. UserRow from
 * service/users/directory.ts). A cycle only counts when it exists at run time: type-only imports are erased.
 */
const SRC = "^src/";

module.exports = {
  forbidden: [
    {
      name: "console-only-shared",
      comment: 'DESIGN.md: "console → only shared" ("The console imports nothing from the server but src/shared").',
      severity: "error",
      from: { path: `${SRC}console/` },
      to: { path: SRC, pathNot: `${SRC}(console|shared)/` },
    },
    {
      name: "service-never-gateway-cli-console",
      comment: 'DESIGN.md: "service → never gateway, cli, console".',
      severity: "error",
      from: { path: `${SRC}service/` },
      to: { path: `${SRC}(gateway|cli|console)/` },
    },
    {
      name: "db-never-service-gateway",
      comment: 'DESIGN.md: "db → never service, gateway".',
      severity: "error",
      from: { path: `${SRC}db/` },
      to: { path: `${SRC}(service|gateway)/` },
    },
    {
      name: "api-and-cli-never-db",
      comment: 'DESIGN.md: "gateway/api and cli → never db (they call services)".',
      severity: "error",
      from: { path: `${SRC}(gateway/api|cli)/` },
      to: { path: `${SRC}db/` },
    },
    {
      name: "providers-never-service-db",
      comment:
        'DESIGN.md: "providers → never service or db (ports only)".',
      severity: "error",
      from: { path: `${SRC}gateway/relay/providers/` },
      to: { path: `${SRC}(service|db)/` },
    },
    {
      name: "server-wiring-used-by-main-and-cli",
      comment:
        'DESIGN.md: "The server\'s start-up wiring is its own module, used by main.ts and by the CLI." ' +
        "Nothing else starts a server.",
      severity: "error",
      from: { pathNot: `${SRC}(main\\.ts$|cli/|server/)` },
      to: { path: `${SRC}server/` },
    },
    {
      name: "server-wiring-through-services",
      comment:
        "The start-up wiring (src/server) composes the gateway and the services; like the other adapters it " +
        "reaches the database through services, never by import.",
      severity: "error",
      from: { path: `${SRC}server/` },
      to: { path: `${SRC}db/` },
    },
    {
      name: "no-circular",
      comment: "No import cycles at run time (a cycle of which one link is an `import type` is erased by the compiler).",
      severity: "error",
      from: {},
      to: { circular: true, dependencyTypesNot: ["type-only"], viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Written by the build (the embedded console's files): nothing of ours to check, and slow to read.
    exclude: { path: "^src/gen/" },
    // TypeScript 7 has no compiler API for dependency-cruiser to read TypeScript with; SWC parses it instead.
    parser: "swc",
    // Packages are resolved as Bun resolves them (ES module entry points first).
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["bun", "import", "require", "node", "default"] },
  },
};
