/** Tables of the stock area (migration 0002_stock). */
// biome-ignore lint/suspicious/noEmptyInterface: filled as the area grows
export interface StockTables {}
