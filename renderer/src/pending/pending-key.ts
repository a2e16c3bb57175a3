/** The key of a package's record in the UI's queue (PendingDb). */
export const pendingKey = (accountId: number, packageId: number): string => `${accountId}/${packageId}`;
