/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and database drivers stay outside the bundle; the API shares them with server.ts.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
};
export default nextConfig;
