// Base64 and base64url decoding for the structural checks (a JWT's header,
// text hidden in base64). Pure: no Buffer, so the domain stays portable.

/** The bytes of a base64 or base64url text, or undefined when it is not one. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(standard) || standard.length % 4 === 1) return undefined;
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text a base64 text encodes, or undefined. */
export function decodeBase64Text(text: string): string | undefined {
  const bytes = decodeBase64(text);
  if (!bytes) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
