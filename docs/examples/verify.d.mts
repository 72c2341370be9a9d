// Types for the receiver example, so TypeScript tests can import it.
export declare function verifySvcWebhook(secret: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer | string, nowSeconds?: number): any;
export declare class SeenDeliveries {
  constructor(ttlMs?: number);
  firstTime(deliveryId: string | undefined, nowMs?: number): boolean;
}
