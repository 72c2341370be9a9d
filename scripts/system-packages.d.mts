// Types of system-packages.mjs for the TypeScript tests that read its lists.
export interface SystemPackage {
  package: string;
  file: string;
  for: string;
}
export interface TestServer {
  name: string;
  port: number;
  how: string;
  start: string[];
}
export const SYSTEM_PACKAGES: SystemPackage[];
export const TEST_SERVERS: TestServer[];
export function missingPackages(exists?: (file: string) => boolean): SystemPackage[];
export function listening(port: number, timeoutMs?: number): Promise<boolean>;
export function missingServers(isListening?: (port: number) => Promise<boolean>): Promise<TestServer[]>;
