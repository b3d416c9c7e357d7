/** Tables of the retail clients area (migration 0004_clients). */
// biome-ignore lint/suspicious/noEmptyInterface: filled as the area grows
export interface ClientTables {}
