import { describe, expect, it } from "vitest";
import { ByteChecksum, checksumHex } from "./byte-checksum";

const sample = Uint8Array.from({ length: 1000 }, (_, i) => (i * 2654435761) >>> 24);

describe("ByteChecksum", () => {
  it("gives the same sum however the bytes are cut into pieces, at any offset of their buffer", () => {
    const whole = checksumHex(sample);
    for (const step of [1, 3, 7, 8, 9, 64, 999]) {
      const sum = new ByteChecksum();
      for (let at = 0; at < sample.length; at += step) sum.update(sample.slice(at, at + step));
      expect(sum.hex(), `pieces of ${step}`).toBe(whole);
    }
    const shifted = new Uint8Array(sample.length + 3);
    shifted.set(sample, 3);
    expect(checksumHex(shifted.subarray(3))).toBe(whole);
  });

  it("changes with any flipped bit, any byte cut off or added, and zeros added", () => {
    const whole = checksumHex(sample);
    for (let bit = 0; bit < sample.length * 8; bit++) {
      const flipped = sample.slice();
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      expect(checksumHex(flipped)).not.toBe(whole);
    }
    for (let cut = 1; cut <= 16; cut++) expect(checksumHex(sample.subarray(0, sample.length - cut))).not.toBe(whole);
    expect(checksumHex(Uint8Array.of(...sample, 0))).not.toBe(whole);
    expect(checksumHex(new Uint8Array(8))).not.toBe(checksumHex(new Uint8Array(16)));
    expect(checksumHex(new Uint8Array(0))).toMatch(/^[0-9a-f]{16}$/);
  });
});
