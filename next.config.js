/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and database drivers stay outside the bundle; the API shares them with server.ts.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  // NEXT_DIST_DIR: a second build beside .next (for the build and the server alike), e.g. to run a console
  // test against a change while another build is in use.
  ...(process.env.NEXT_DIST_DIR ? { distDir: process.env.NEXT_DIST_DIR } : {}),
};
export default nextConfig;
