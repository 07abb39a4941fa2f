import { describe, expect, test } from "bun:test";
import { AddressPolicy } from "../../src/service/egress/address-policy";
import { normalizeAllowList } from "../../src/service/egress/allow-list";
import { firstReachable, RefusedAddressError, UpstreamGate } from "../../src/service/egress/gate";

const policy = (allowed: string[] = [], allowLinkLocal = false) => new AddressPolicy({ allowed, allowLinkLocal });
const allowed = (p: AddressPolicy, address: string, host = address) => p.refusal(host, address) === null;

describe("the upstream address policy", () => {
  test("link-local and cloud-metadata addresses are refused unless root allows them; an allowed private range does not open them", () => {
    const ranges = policy(["0.0.0.0/0", "::/0"]);
    for (const address of [
      "169.254.169.254",
      "169.254.0.23",
      "fe80::1",
      "100.100.100.200",
      "fd00:ec2::254",
      "168.63.129.16",
    ]) {
      expect(allowed(ranges, address)).toBe(false);
      expect(allowed(policy([], true), address)).toBe(true);
    }
    expect(policy().nameRefusal("metadata.google.internal.")).toContain("a cloud metadata name");
    expect(policy([], true).nameRefusal("metadata.google.internal")).toBeNull();
  });

  test("loopback, private, CGNAT, unique-local and unspecified addresses are allowed only for what root lists", () => {
    const none = policy();
    for (const address of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.20",
      "fc00::1",
      "100.64.0.1",
      "0.0.0.0",
      "::ffff:127.0.0.1",
    ]) {
      expect(allowed(none, address)).toBe(false);
    }
    expect(none.refusal("localhost", "::ffff:127.0.0.1")).toBe(
      "upstream address 127.0.0.1 is not allowed by the upstream address policy (loopback, not in the allowed private ranges)",
    );
    const lan = policy(["192.168.1.0/24", "10.0.0.5", "ollama.lan"]);
    expect(allowed(lan, "192.168.1.20")).toBe(true);
    expect(allowed(lan, "192.168.2.20")).toBe(false);
    expect(allowed(lan, "10.0.0.5")).toBe(true);
    expect(allowed(lan, "10.0.0.6")).toBe(false);
    expect(allowed(lan, "172.20.0.9", "ollama.lan")).toBe(true);
    expect(allowed(lan, "127.0.0.1", "other.lan")).toBe(false);
  });

  test("public addresses are allowed", () => {
    for (const address of ["8.8.8.8", "2606:4700::1111", "104.18.0.1"]) expect(allowed(policy(), address)).toBe(true);
  });

  test("the allowed list takes addresses, CIDR ranges and host names, and refuses anything else by name", () => {
    const fail = (entry: string) => new Error(`bad ${entry}`);
    expect(normalizeAllowList("127.0.0.1/8, [::1]\nOllama.LAN,10.0.0.5", fail)).toEqual([
      "127.0.0.1/8",
      "::1",
      "ollama.lan",
      "10.0.0.5",
    ]);
    expect(() => normalizeAllowList("10.0.0.0/33", fail)).toThrow("bad 10.0.0.0/33");
    expect(() => normalizeAllowList("http://x", fail)).toThrow("bad http://x");
  });

  test("a host name is checked by what it resolves to: localhost is refused as loopback", async () => {
    const error = (await new UpstreamGate(policy()).addressesOf("localhost").catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect(error.message).toContain("is not allowed by the upstream address policy (loopback");
    expect(await new UpstreamGate(policy(["127.0.0.0/8"])).addressesOf("localhost")).toContain("127.0.0.1");
  });

  test("of a name's allowed addresses, one that refuses the connection is passed over for the next", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("reached") });
    try {
      const call = (address: string) => fetch(`http://${address}:${server.port}/`, { proxy: false });
      expect(await (await firstReachable(["127.0.0.3", "127.0.0.1"], call)).text()).toBe("reached");
      expect(await firstReachable(["127.0.0.3"], call).catch((e: { code?: string }) => e.code)).toBe("ECONNREFUSED");
    } finally {
      server.stop(true);
    }
  });
});
