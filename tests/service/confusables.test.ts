import { expect, test } from "bun:test";
import unhomoglyph from "unhomoglyph";
import table from "unhomoglyph/data.json";
import { confusablesSkeleton } from "../../src/service/users/confusables";

const prototypes: Record<string, string> = table;
const keys = Object.keys(prototypes);

test("every character of the table becomes what the package's own function makes of it, alone and between others", () => {
  expect(keys.length).toBeGreaterThan(6000);
  for (const character of keys) {
    const text = `a${character}b${character}`;
    expect(confusablesSkeleton(character)).toBe(unhomoglyph(character));
    expect(confusablesSkeleton(text)).toBe(unhomoglyph(text));
  }
});

test("names mixing the table's characters with others, astral ones included, come out as the package makes them", () => {
  for (const text of [
    "",
    "plain-name_42",
    "😀 root 😀",
    "Ωmega",
    "日本語のユーザー",
    "\u{1d5cb}\u{1d5c8}\u{1d5c8}\u{1d5cd}",
  ])
    expect(confusablesSkeleton(text)).toBe(unhomoglyph(text));
  expect(confusablesSkeleton("r00t")).toBe("rOOt");
  expect(confusablesSkeleton("rn")).toBe(unhomoglyph("rn"));
});
