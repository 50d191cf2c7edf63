// Only same-origin paths may be a post-sign-in destination (an absolute or protocol-relative URL would make
// the sign-in page an open redirect).
export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || !v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\") || v.startsWith("/signin")) return "/";
  return v;
}
