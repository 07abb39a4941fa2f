import { MAX_EVENT_CHARS } from "./sse";

const OPEN = new Set(["{", "["]);
const CLOSE = new Set(["}", "]"]);

/**
 * Splits a streamed JSON array (`[{…},\r\n{…}]`, Gemini's default stream form) into the text of each element as
 * it completes, keeping a partial one buffered; strings are skipped so brackets inside them do not count.
 */
export class JsonArraySplitter {
  private readonly decoder = new TextDecoder();
  private element = "";
  /** Nesting depth: 1 inside the array, more inside an element. */
  private depth = 0;
  private inString = false;
  private escaped = false;

  push(chunk: Uint8Array): string[] {
    const elements: string[] = [];
    for (const char of this.decoder.decode(chunk, { stream: true })) {
      const structural = OPEN.has(char) || CLOSE.has(char) || char === ",";
      if (this.depth > 1 || (this.depth === 1 && (this.inString || !structural))) {
        this.element += char;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === "\\") this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '"') this.inString = true;
      else if (OPEN.has(char)) {
        if (this.depth === 1) this.element += char;
        this.depth++;
      } else if (CLOSE.has(char)) {
        this.depth--;
        if (this.depth === 1 || (this.depth === 0 && this.element.trim())) elements.push(this.take());
      } else if (char === "," && this.depth === 1 && this.element.trim()) elements.push(this.take());
      if (this.element.length > MAX_EVENT_CHARS) {
        throw new Error(`the upstream sent an element longer than ${MAX_EVENT_CHARS} characters`);
      }
    }
    return elements;
  }

  /** Nothing whole is left once the array is closed; an element cut off by the stream's end is dropped. */
  rest(): string[] {
    this.element = "";
    return [];
  }

  private take(): string {
    const element = this.element.trim();
    this.element = "";
    return element;
  }
}
