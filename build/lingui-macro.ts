import type { BunPlugin } from "bun";
import { transformAsync, type PluginItem } from "@babel/core";
import linguiMacro from "@lingui/babel-plugin-lingui-macro";

/**
 * Runs the Lingui macros (t, msg, Trans, useLingui) through Babel; Bun then compiles the TypeScript.
 * The filter stays on our own sources: matching dist/ would override `with { type: "file" }` imports.
 */
export const linguiMacroPlugin = (): BunPlugin => ({
  name: "lingui-macro",
  setup(build) {
    build.onLoad({ filter: /^(?!.*\/node_modules\/).*\/src\/(console|cli\/tui)\/.*\.tsx?$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const loader = path.endsWith("x") ? "tsx" : "ts";
      if (!source.includes("@lingui/core/macro") && !source.includes("@lingui/react/macro"))
        return { contents: source, loader };
      const out = await transformAsync(source, {
        filename: path,
        babelrc: false,
        configFile: false,
        parserOpts: { plugins: loader === "tsx" ? ["jsx", "typescript"] : ["typescript"] },
        // The macro is typed against its own copy of @babel/types (Babel 7); it runs fine under Babel 8.
        plugins: [linguiMacro as unknown as PluginItem],
      });
      return { contents: out!.code!, loader };
    });
  },
});
