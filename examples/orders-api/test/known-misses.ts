// What questions.test.ts (Vitest) and jest/questions.test.ts (Jest) share about the baseline retriever.
// The questions it is known to miss are marked in data/questions.jsonl ("expect": "miss", with the reason in
// "why"): they run under test.fails / test.failing, must fail today, and are measured and recorded like the
// others (so the baseline tracks them too). When a change makes one of them clear the bar, its test fails:
// take the mark off its line.

/** The near misses of the corpus (see the README): a section and the look-alikes it is confused with. */
export const LOOK_ALIKES: Record<string, string[]> = {
  'orders-cancel': ['shipments-cancel'],
  'shipments-cancel': ['orders-cancel'],
  'rate-limits': ['rate-limits-webhooks', 'rate-limits-batch'],
  'rate-limits-webhooks': ['rate-limits'],
  'rate-limits-batch': ['rate-limits'],
  'refund-statuses': ['return-statuses', 'order-statuses', 'shipment-tracking'],
  'return-statuses': ['refund-statuses'],
  'shipment-tracking': ['refund-statuses'],
  'pagination-orders': ['pagination-customers'],
  'pagination-customers': ['pagination-orders'],
  'refunds-create': ['partial-refunds'],
  'retry-backoff': ['webhook-retries'],
  'webhook-retries': ['retry-backoff'],
  'key-rotation': ['webhook-signatures'],
  'webhook-signatures': ['key-rotation'],
  'inventory-reservations': ['inventory-levels'],
  'inventory-levels': ['inventory-reservations'],
  'customer-deletion': ['customers', 'data-retention'],
  'api-versioning': ['deprecation-policy'],
  'deprecation-policy': ['api-versioning'],
  'dashboard-roles': ['oauth-scopes', 'api-keys'],
  'webhook-ip-addresses': ['addresses'],
};
