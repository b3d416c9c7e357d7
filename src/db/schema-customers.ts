/** Tables of the wholesale customers area (migration 0007_customers). */
// biome-ignore lint/suspicious/noEmptyInterface: filled as the area grows
export interface CustomerTables {}
