/** Tables of the shops area (migration 0006_shops). */
// biome-ignore lint/suspicious/noEmptyInterface: filled as the area grows
export interface ShopTables {}
