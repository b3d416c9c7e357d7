/** Tables of the pricing area (migration 0003_pricing). */
// biome-ignore lint/suspicious/noEmptyInterface: filled as the area grows
export interface PricingTables {}
