let registered = false;

/**
 * The TUI's texts are Lingui macros. The binary has them compiled by its build; from source (`bun
 * src/main.ts tui`, bun test) they are compiled as the TUI's modules load, by the same Babel plugin,
 * registered before those modules are imported. The plugin's path is not a literal, so the binary's
 * build does not pull Babel in.
 */
export async function compileMacrosOnLoad(): Promise<void> {
  if (registered || import.meta.path.startsWith("/$bunfs/")) return;
  registered = true;
  const pluginModule = new URL("../../../build/lingui-macro.ts", import.meta.url).pathname;
  const { linguiMacroPlugin } = (await import(pluginModule)) as typeof import("../../../build/lingui-macro");
  Bun.plugin(linguiMacroPlugin());
}
