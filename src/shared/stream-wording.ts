/**
 * How the gateway words a message it writes itself into a streamed reply (an error event): in the relay's error
 * language (RelayErrorLanguage), resolved once per call by the relay and handed to the stream's writer. The
 * upstream's own error text is passed on as it came, never through this.
 */
export type StreamWording = (english: string) => string;

/** The message as written, in English. */
export const asWritten: StreamWording = (english) => english;
