/**
 * A channel whose own settings (a key or region its family cannot use) keep a request from being addressed:
 * the channel's fault, not the client's, so the relay tries another channel and names the setting.
 */
export class ChannelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChannelConfigError";
  }
}
