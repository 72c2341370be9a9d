// Types of system-packages.mjs for the TypeScript tests that read its list.
export interface SystemPackage {
  package: string;
  file: string;
  for: string;
}
export const SYSTEM_PACKAGES: SystemPackage[];
export function missingPackages(exists?: (file: string) => boolean): SystemPackage[];
