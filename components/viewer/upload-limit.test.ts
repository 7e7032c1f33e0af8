import { describe, expect, it } from "vitest";
import { fileTooLarge, planFor, uploadTarget } from "./load-plan";
import { setPendingUpload } from "@/lib/client/pending-upload";
import { readViewParams } from "./view-params";

const MB = 1024 * 1024;

describe("the upload size limit", () => {
  it("says how big the file is, what the limit is and how to raise it", () => {
    expect(fileTooLarge(3 * MB, 2 * MB)).toBe(
      "This file is 3.0 MB; the viewer opens files up to 2.0 MB. Set PI_VIEWER_MAX_FILE_MB when starting the viewer to raise the limit.",
    );
    expect(fileTooLarge(2 * MB, 2 * MB)).toBeNull();
    expect(fileTooLarge(3 * MB, undefined)).toBeNull();
  });

  it("refuses a picked file over the limit before reading it", () => {
    const file = new File(["x".repeat(2048)], "big.jsonl");
    expect(uploadTarget(file, 1024).refusal).toContain("This file is 2.0 KB");
    expect(uploadTarget(file, 4096).refusal).toBeUndefined();
  });

  it("applies to a file handed over from the library page", () => {
    setPendingUpload(new File(["x".repeat(2048)], "handed.jsonl"));
    const plan = planFor({ params: readViewParams(new URLSearchParams("upload=handed.jsonl")), samples: false, fileOnDisk: null, maxFileBytes: 1024 });
    expect(plan.kind === "load" && plan.target.refusal).toContain("viewer opens files up to 1.0 KB");
  });
});
