import { randomInt } from "node:crypto";
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from "~/domain/recovery-codes";

/**
 * Better Auth's two-factor plugin draws recovery codes from a-z, A-Z and 0-9 and compares them
 * exactly; its `backupCodeOptions.customBackupCodesGenerate` makes ours instead (auth.server.ts):
 * ten codes of ten characters without look-alikes, "7KQ4M-XW9TP", from the system's CSPRNG.
 */
export function generateRecoveryCodes(amount = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: amount }, () => {
    let code = "";
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i++)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}
