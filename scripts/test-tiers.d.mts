// Types of scripts/test-tiers.mjs for the tests that import it.
export declare const TIERS: readonly ['lint', 'unit', 'full'];
export declare function filesOfTier(tier: string, root?: string): string[];
export declare function clickHouseFiles(root?: string): string[];
