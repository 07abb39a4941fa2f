import { Command } from "commander";
import { VERSION } from "../shared/version";
import { systemCommands } from "./commands/system";
import { sub } from "./define";
import { EXIT, report } from "./output";
import { exitQuietlyOnEpipe } from "./stdout";

const OVERVIEW = `
Every command reads the server's environment (SQLITE_PATH or SQL_DSN, REDIS_CONN_STRING,
and a .env file) and acts on the same database as the root user; a change reaches a
running server within a second. Exit codes: 0 ok, 1 refused or failed, 2 usage error.
Add --json to a listing or show for scripts; "tollgate <command> --help" for more.

Examples:
  tollgate serve --port 8080
  tollgate user list --json
  tollgate channel test-all
  tollgate apply -f tollgate.yaml --dry-run`;

type Configure = (command: Command) => void;

interface Entry {
  description: string;
  examples: string[];
  /** Adds the subcommands (or the options and action) to the command; loaded only when it is run. */
  load: () => Promise<Configure>;
}

const entry = (description: string, examples: string[], load: () => Promise<Configure>): Entry => ({
  description,
  examples,
  load,
});

/** The resource commands, loaded on demand so `--version`, `--help` and `serve` do not pay for the others. */
const COMMANDS: Record<string, Entry> = {
  user: entry(
    "manage users (the CLI acts as the root user)",
    ["tollgate user list --keyword alice"],
    async () => (await import("./commands/users")).userCommands,
  ),
  channel: entry(
    "manage upstream channels: list, add, edit, test, ...",
    ["tollgate channel list --model gpt-4o"],
    async () => (await import("./commands/channels")).channelCommands,
  ),
  token: entry(
    "manage a user's access tokens (the CLI acts for the user)",
    ["tollgate token list --user alice"],
    async () => (await import("./commands/tokens")).tokenCommands,
  ),
  redemption: entry(
    "create and manage redemption codes",
    ["tollgate redemption create --quota 500000 --count 10 --name launch"],
    async () => (await import("./commands/redemptions")).redemptionCommands,
  ),
  option: entry(
    "read and change site options (secret ones read back blank)",
    ["tollgate option set SystemName 'My Gateway'"],
    async () => (await import("./commands/options")).optionCommands,
  ),
  log: entry(
    "read the usage log (everyone's, as an administrator sees it)",
    ["tollgate log list --user alice --type consume"],
    async () => (await import("./commands/logs")).logCommands,
  ),
  apply: entry(
    "make the database match a YAML or JSON file (idempotent: applying twice changes nothing)",
    [
      "tollgate apply -f tollgate.yaml --dry-run",
      "tollgate export --with-secrets -o all.yaml && tollgate apply -f all.yaml",
    ],
    async () => (await import("./commands/apply")).applyCommand,
  ),
  export: entry(
    "write the current options, users, channels, tokens and redemption codes in apply's format",
    ["tollgate export -o tollgate.yaml", "tollgate export --with-secrets --format json > backup.json"],
    async () => (await import("./commands/apply")).exportCommand,
  ),
  import: entry(
    "import a one-api or new-api database: users (passwords kept), keys (still valid), channels, options, …",
    [
      "tollgate import --from one-api --dsn /data/one-api.db --dry-run",
      "tollgate import --from new-api --dsn mysql://root:pw@db:3306/new-api --with-logs --since 2025-01-01",
    ],
    async () => (await import("./commands/import")).importCommand,
  ),
  secrets: entry(
    "where the secret key is kept (it encrypts channel keys, secret options and token keys)",
    ["tollgate secrets move-key --to /etc/tollgate/key"],
    async () => (await import("./commands/secrets")).secretsCommands,
  ),
  tui: entry(
    "full-screen terminal UI for administrators: overview, channels, users, live logs",
    ["tollgate tui --lang en"],
    async () => (await import("./commands/tui")).tuiCommand,
  ),
};

/** The command the arguments name ("help user" names user), if any. */
function named(args: string[]): string | undefined {
  const [first, second] = args;
  return first === "help" ? second : first;
}

/** The whole command line: every command listed, the one `args` names loaded in full; errors come back, never exit. */
export async function buildProgram(args: string[]): Promise<Command> {
  const program = new Command()
    .name("tollgate")
    .description("Self-hosted gateway that resells access to large-language-model APIs")
    .version(VERSION, "-v, --version", "print the version")
    .exitOverride()
    .addHelpText("after", OVERVIEW);
  systemCommands(program);
  const wanted = named(args);
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = sub(program, name, entry.description, ...entry.examples);
    if (name === wanted) (await entry.load())(command);
  }
  return program;
}

/** Runs one command line (argv as process.argv); the exit code is left in process.exitCode, as serve keeps running. */
export async function runCli(argv: string[]): Promise<void> {
  exitQuietlyOnEpipe();
  const args = argv.slice(2);
  try {
    const program = await buildProgram(args);
    const first = args[0];
    if (first && !first.startsWith("-") && first !== "help" && !program.commands.some((c) => c.name() === first)) {
      process.stderr.write(`error: unknown command '${first}' (see tollgate --help)\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    await program.parseAsync(argv);
  } catch (error) {
    report(error);
  }
}
